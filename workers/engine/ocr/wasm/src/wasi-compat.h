// Included before every tesseract source file of the WebAssembly build (scripts/build-tesseract.mjs).
// wasm32-wasi's libc++ is built without threads: it has no std::mutex or std::thread. The module
// runs on one thread, so a mutex that does nothing and a thread that runs its function at once
// keep tesseract's code unchanged (its threads are only in training-data loading).
// It is built without a file system too: std::ifstream (box files and file lists, never used by
// the engine, which hands models and pages over in memory) opens nothing.
#pragma once
#ifdef __cplusplus
#include <fstream>
#include <functional>
#include <istream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

namespace std {
inline namespace __2 {
class mutex {
 public:
  constexpr mutex() noexcept = default;
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;
  void lock() {}
  bool try_lock() { return true; }
  void unlock() {}
};

class thread {
 public:
  thread() noexcept = default;
  template <class F, class... Args>
  explicit thread(F&& f, Args&&... args) {
    std::invoke(std::forward<F>(f), std::forward<Args>(args)...);
  }
  thread(thread&&) noexcept = default;
  thread& operator=(thread&&) noexcept = default;
  bool joinable() const noexcept { return false; }
  void join() {}
  void detach() {}
};

namespace this_thread {
inline void yield() noexcept {}
}  // namespace this_thread

template <>
class basic_ifstream<char, char_traits<char>> : public basic_istream<char> {
 public:
  basic_ifstream() : basic_istream<char>(&buf_) {}
  explicit basic_ifstream(const char *, ios_base::openmode = ios_base::in) : basic_istream<char>(&buf_) {
    setstate(ios_base::failbit);
  }
  explicit basic_ifstream(const string &name, ios_base::openmode mode = ios_base::in)
      : basic_ifstream(name.c_str(), mode) {}
  bool is_open() const { return false; }
  void open(const char *, ios_base::openmode = ios_base::in) { setstate(ios_base::failbit); }
  void close() {}

 private:
  basic_stringbuf<char> buf_;
};
}  // namespace __2
}  // namespace std
#endif
