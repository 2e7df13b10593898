/* libc functions wasi-libc lacks that Leptonica's file utilities reference (temporary files,
   shell commands, path resolution). The engine never reaches them: pages and models arrive in
   memory. Each fails as it would on a system without the feature. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

FILE *tmpfile(void) {
  errno = ENOSYS;
  return NULL;
}

int mkstemp(char *template_name) {
  (void)template_name;
  errno = ENOSYS;
  return -1;
}

int system(const char *command) {
  /* system(NULL) asks whether a shell exists: none. */
  (void)command;
  return command ? -1 : 0;
}

char *realpath(const char *path, char *resolved) {
  (void)path;
  (void)resolved;
  errno = ENOSYS;
  return NULL;
}
