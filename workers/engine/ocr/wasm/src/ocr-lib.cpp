// The C interface of the engine's tesseract WebAssembly module (loaded by ocr/wasm/tesseract-module.ts).
// It keeps the behaviour of tesseract-wasm 0.11's OCREngine, which the engine used before: a model
// loaded from memory with the default engine mode, automatic page segmentation set when an image is
// loaded, layout analysis or recognition run once per image, and the same box flags and
// confidences. Pages are handed over as native tesseract reads them from a file (ocr_load_image).
#include <allheaders.h>
#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "intsimdmatrix.h"
#include "matrix.h"

namespace lingoscan {
extern const tesseract::IntSimdMatrix kWasmIntSimdMatrix;
extern const char kKernelName[];
}  // namespace lingoscan

namespace {

enum LayoutFlag { StartOfLine = 1, EndOfLine = 2 };

struct Engine {
  tesseract::TessBaseAPI api;
  bool layout_done = false;
  bool ocr_done = false;
  /** The last result handed to JavaScript (valid until the next call that returns one). */
  std::string result;
};

char *Dup(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  std::memcpy(p, s.data(), s.size() + 1);
  return p;
}

void DoOCR(Engine *e) {
  if (!e->ocr_done) {
    e->api.Recognize(nullptr);
    e->layout_done = true;
    e->ocr_done = true;
  }
}

void PutInt(std::string &out, int32_t v) { out.append(reinterpret_cast<const char *>(&v), sizeof(v)); }

/**
 * Boxes as records: left, top, right, bottom, flags (int32), confidence (float32), text length
 * (int32) and the UTF-8 text; the whole preceded by the record count.
 */
const char *Boxes(Engine *e, int unit, bool with_text) {
  e->result.clear();
  std::unique_ptr<tesseract::ResultIterator> iter(e->api.GetIterator());
  PutInt(e->result, 0);
  if (!iter) return e->result.data();
  const auto level = unit == 1 ? tesseract::RIL_TEXTLINE : tesseract::RIL_WORD;
  int32_t count = 0;
  do {
    float confidence = 0.0f;
    std::string text;
    if (with_text) {
      confidence = iter->Confidence(level) * 0.01;
      char *t = iter->GetUTF8Text(level);
      if (t) {
        text = t;
        delete[] t;
      }
    }
    int flags = 0;
    if (level == tesseract::RIL_WORD) {
      if (iter->IsAtBeginningOf(tesseract::RIL_TEXTLINE)) flags |= StartOfLine;
      if (iter->IsAtFinalElement(tesseract::RIL_TEXTLINE, level)) flags |= EndOfLine;
    }
    int left = 0, top = 0, right = 0, bottom = 0;
    iter->BoundingBox(level, &left, &top, &right, &bottom);
    PutInt(e->result, left);
    PutInt(e->result, top);
    PutInt(e->result, right);
    PutInt(e->result, bottom);
    PutInt(e->result, flags);
    e->result.append(reinterpret_cast<const char *>(&confidence), sizeof(confidence));
    PutInt(e->result, static_cast<int32_t>(text.size()));
    e->result.append(text);
    ++count;
  } while (iter->Next(level));
  std::memcpy(&e->result[0], &count, sizeof(count));
  return e->result.data();
}

}  // namespace

#define EXPORT(name) extern "C" __attribute__((export_name(#name)))

EXPORT(ocr_kernel) const char *ocr_kernel() { return lingoscan::kKernelName; }

EXPORT(ocr_version) const char *ocr_version() { return tesseract::TessBaseAPI::Version(); }

EXPORT(ocr_malloc) void *ocr_malloc(size_t n) { return std::malloc(n); }

EXPORT(ocr_free) void ocr_free(void *p) { std::free(p); }

EXPORT(ocr_create) Engine *ocr_create() {
  // The WebAssembly int8 kernel, in place of tesseract's generic loop (it has no cpuid to pick one).
  tesseract::IntSimdMatrix::intSimdMatrix = &lingoscan::kWasmIntSimdMatrix;
  return new Engine();
}

EXPORT(ocr_destroy) void ocr_destroy(Engine *e) {
  e->api.End();
  delete e;
}

EXPORT(ocr_load_model) int ocr_load_model(Engine *e, const char *data, int size) {
  return e->api.Init(data, size, "eng", tesseract::OEM_DEFAULT, nullptr, 0, nullptr, nullptr, false, nullptr);
}

EXPORT(ocr_set_variable) int ocr_set_variable(Engine *e, const char *name, const char *value) {
  return e->api.SetVariable(name, value) ? 1 : 0;
}

/** The variable's value (malloc'd, the caller frees it), or null when there is no such variable. */
EXPORT(ocr_get_variable) char *ocr_get_variable(Engine *e, const char *name) {
  std::string value;
  if (!e->api.GetVariableAsString(name, &value)) return nullptr;
  return Dup(value);
}

/**
 * Loads width x height RGBA pixels (4 bytes a pixel, R first).
 *
 * `as_native` 1: the page reaches tesseract as native tesseract reads the same picture from a file:
 * a gray page (R = G = B everywhere) as an 8-bit gray image, any other as RGB in Leptonica's
 * channel order. 0: tesseract-wasm 0.11's way, the bytes copied word for word into a 32 bpp image
 * (Leptonica, which keeps red in a word's high byte, then reads alpha as red and swaps the others:
 * a gray page turns into gray at 30 % lower contrast).
 */
EXPORT(ocr_load_image) int ocr_load_image(Engine *e, const uint8_t *rgba, int width, int height, int as_native) {
  e->api.InitForAnalysePage();
  e->api.SetPageSegMode(tesseract::PSM_AUTO);
  const size_t n = static_cast<size_t>(width) * height;
  bool gray = as_native != 0;
  for (size_t i = 0; gray && i < n; ++i) {
    const uint8_t *p = rgba + 4 * i;
    gray = p[0] == p[1] && p[1] == p[2];
  }
  Pix *pix = pixCreate(width, height, gray ? 8 : 32);
  if (!pix) return 1;
  l_uint32 *data = pixGetData(pix);
  if (gray) {
    const int wpl = pixGetWpl(pix);
    for (int y = 0; y < height; ++y) {
      l_uint32 *line = data + static_cast<size_t>(y) * wpl;
      const uint8_t *src = rgba + static_cast<size_t>(y) * width * 4;
      for (int x = 0; x < width; ++x) SET_DATA_BYTE(line, x, src[4 * x]);
    }
  } else if (as_native) {
    for (size_t i = 0; i < n; ++i) {
      const uint8_t *p = rgba + 4 * i;
      composeRGBAPixel(p[0], p[1], p[2], p[3], data + i);
    }
  } else {
    std::memcpy(data, rgba, n * 4);
  }
  e->api.SetImage(pix);
  e->api.SetRectangle(0, 0, width, height);
  pixDestroy(&pix);
  e->layout_done = false;
  e->ocr_done = false;
  return 0;
}

EXPORT(ocr_clear_image) void ocr_clear_image(Engine *e) { e->api.Clear(); }

EXPORT(ocr_bounding_boxes) const char *ocr_bounding_boxes(Engine *e, int unit) {
  if (!e->layout_done) {
    delete e->api.AnalyseLayout();
    e->layout_done = true;
  }
  return Boxes(e, unit, false);
}

EXPORT(ocr_text_boxes) const char *ocr_text_boxes(Engine *e, int unit) {
  DoOCR(e);
  return Boxes(e, unit, true);
}

EXPORT(ocr_text) const char *ocr_text(Engine *e) {
  DoOCR(e);
  char *t = e->api.GetUTF8Text();
  e->result = t ? t : "";
  delete[] t;
  return e->result.c_str();
}

EXPORT(ocr_hocr) const char *ocr_hocr(Engine *e) {
  DoOCR(e);
  char *t = e->api.GetHOCRText(nullptr, 0);
  e->result = t ? t : "";
  delete[] t;
  return e->result.c_str();
}

/**
 * Checks this module's int8 kernel against tesseract's generic loop (IntSimdMatrix::MatrixDotVector)
 * on pseudo-random matrices of awkward shapes, the full int8 range included (the relaxed kernel's
 * sign handling). Returns the number of outputs whose float differs in any bit.
 */
EXPORT(ocr_kernel_selftest) int ocr_kernel_selftest(uint32_t seed) {
  const tesseract::IntSimdMatrix &m = lingoscan::kWasmIntSimdMatrix;
  uint32_t state = seed ? seed : 1;
  auto next = [&state]() {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  auto int8 = [&next]() { return static_cast<int8_t>(static_cast<int>(next() % 255) - 127); };
  int mismatches = 0;
  const int shapes[][2] = {{1, 1}, {3, 5}, {4, 16}, {7, 33}, {36, 97}, {48, 256}, {97, 513}, {150, 96}};
  for (const auto &shape : shapes) {
    const int num_out = shape[0], num_in = shape[1];
    tesseract::GENERIC_2D_ARRAY<int8_t> w(num_out, num_in + 1, 0);
    for (int i = 0; i < num_out; ++i) {
      for (int j = 0; j <= num_in; ++j) w(i, j) = int8();
    }
    std::vector<int8_t> shaped;
    int32_t rounded_num_out = 0;
    m.Init(w, shaped, rounded_num_out);
    std::vector<float> scales(rounded_num_out);
    for (auto &s : scales) s = static_cast<float>(next() % 1000 + 1) / 65536.0f;
    std::vector<int8_t> u(m.RoundInputs(num_in));
    for (int j = 0; j < num_in; ++j) u[j] = int8();
    std::vector<float> expected(num_out), got(rounded_num_out);
    tesseract::IntSimdMatrix::MatrixDotVector(w, scales, u.data(), expected.data());
    m.matrixDotVectorFunction(num_out, num_in + 1, shaped.data(), scales.data(), u.data(), got.data());
    for (int i = 0; i < num_out; ++i) {
      if (std::memcmp(&expected[i], &got[i], sizeof(float)) != 0) ++mismatches;
    }
  }
  return mismatches;
}

/** Leptonica's orientation estimate of the thresholded page, as tesseract-wasm computes it. */
EXPORT(ocr_orientation) int ocr_orientation(Engine *e) {
  Pix *pix = e->api.GetThresholdedImage();
  float up_conf = 0, left_conf = 0;
  const int had_error = pixOrientDetect(pix, &up_conf, &left_conf, 0, 0);
  pixDestroy(&pix);
  if (had_error) return 0;
  if (std::abs(up_conf) - std::abs(left_conf) > 5.0) return up_conf > 0 ? 0 : 180;
  return left_conf < 0 ? 90 : 270;
}
