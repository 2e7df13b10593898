/* Leptonica's config_auto.h for the WebAssembly build: no image codecs or compression libraries
   (the engine hands tesseract raw pixels), and none of the stdio extensions wasi-libc lacks. */
#define HAVE_LIBZ 0
#define HAVE_LIBPNG 0
#define HAVE_LIBJPEG 0
#define HAVE_LIBTIFF 0
#define HAVE_LIBGIF 0
#define HAVE_LIBUNGIF 0
#define HAVE_LIBWEBP 0
#define HAVE_LIBWEBP_ANIM 0
#define HAVE_LIBJP2K 0
#define HAVE_FMEMOPEN 0
#define HAVE_FSTATAT 0
/* getrusage() for leptonica's timers: wasi-libc's emulation (-lwasi-emulated-process-clocks). */
#define _WASI_EMULATED_PROCESS_CLOCKS 1
