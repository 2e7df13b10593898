// Non-linearity (sigmoid) functions with cache tables and clipping.
// Written without recursion, so that they inline into the LSTM's loops as native compilers inline
// the recursive form; the arithmetic is the recursive form's: f(x) = -f(-x) for tanh and
// 1 - f(-x) for the logistic below zero, the same table lookup and interpolation above.

// A table's value at a scaled input >= 0, interpolated linearly; 1 from the table's last entry on.
inline TFloat LookUpScaled(const TFloat *table, TFloat scaled) {
  if (scaled < kTableSize - 1) {
    const int index = static_cast<int>(scaled);
    TFloat i0 = table[index];
    TFloat i1 = table[index + 1];
    return i0 + (i1 - i0) * (scaled - index);
  }
  return scaled != scaled ? scaled : 1; // NaN stays NaN
}

inline TFloat Tanh(TFloat x) {
  const bool negative = x < 0;
  const TFloat y = LookUpScaled(TanhTable, (negative ? -x : x) * kScaleFactor);
  return negative ? -y : y;
}

inline TFloat Logistic(TFloat x) {
  const bool negative = x < 0;
  const TFloat y = LookUpScaled(LogisticTable, (negative ? -x : x) * kScaleFactor);
  return negative ? 1 - y : y;
}

