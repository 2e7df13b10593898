/* tesseract includes <semaphore.h> on every non-Windows system and uses nothing from it; the
   single-threaded wasm32-wasi sysroot has no such header. */
