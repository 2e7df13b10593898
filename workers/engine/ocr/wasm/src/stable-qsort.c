/* qsort as a stable merge sort, in place of wasi-libc's (musl's smoothsort, which is not stable).
   Native tesseract runs on glibc, whose qsort is a merge sort: elements that compare equal keep
   their order. tesseract sorts its lists of blobs, outlines, words and rows with qsort, and some
   of its comparisons tie (two blobs at the same x, rows at the same height), so an unstable sort
   lays out some lines differently from native tesseract. Any stable sort puts ties as glibc's
   does, so this one reads pages as native tesseract does. */
#include <stdlib.h>
#include <string.h>

typedef int (*compare_fn)(const void *, const void *);

/* Sorts n elements of `size` bytes at `base`, with `tmp` room for n elements. */
static void merge_sort(char *base, size_t n, size_t size, compare_fn cmp, char *tmp) {
  if (n < 2) return;
  const size_t half = n / 2;
  char *right = base + half * size;
  merge_sort(base, half, size, cmp, tmp);
  merge_sort(right, n - half, size, cmp, tmp);
  /* Already in order: nothing to merge. */
  if (cmp(right - size, right) <= 0) return;
  char *a = base, *a_end = right, *b = right, *b_end = base + n * size, *out = tmp;
  while (a < a_end && b < b_end) {
    /* Ties take the left element first: stable. */
    if (cmp(b, a) < 0) {
      memcpy(out, b, size);
      b += size;
    } else {
      memcpy(out, a, size);
      a += size;
    }
    out += size;
  }
  memcpy(out, a, (size_t)(a_end - a));
  out += a_end - a;
  memcpy(out, b, (size_t)(b_end - b));
  memcpy(base, tmp, n * size);
}

/* Without room for the merge buffer: insertion sort, stable too. */
static void insertion_sort(char *base, size_t n, size_t size, compare_fn cmp) {
  char item[64];
  for (size_t i = 1; i < n; ++i) {
    for (size_t j = i; j > 0 && cmp(base + (j - 1) * size, base + j * size) > 0; --j) {
      /* Swap neighbours through a small buffer, in pieces for large elements. */
      char *x = base + (j - 1) * size, *y = base + j * size;
      for (size_t k = 0; k < size; k += sizeof item) {
        const size_t m = size - k < sizeof item ? size - k : sizeof item;
        memcpy(item, x + k, m);
        memcpy(x + k, y + k, m);
        memcpy(y + k, item, m);
      }
    }
  }
}

void qsort(void *base, size_t n, size_t size, compare_fn cmp) {
  if (n < 2 || size == 0) return;
  char *tmp = n <= SIZE_MAX / size ? malloc(n * size) : NULL;
  if (tmp) {
    merge_sort(base, n, size, cmp, tmp);
    free(tmp);
  } else {
    insertion_sort(base, n, size, cmp);
  }
}
