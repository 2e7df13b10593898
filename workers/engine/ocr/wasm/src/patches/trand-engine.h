  // std::minstd_rand as on x86-64 and arm64, where its uint_fast32_t has 64 bits. On wasm32 that
  // type has 32 bits, so a seed (SetRandomSeed: the model's iteration x 0x10000001) lost its high
  // bits, and the noise tesseract pads a line image's edges with (Convolve, NetworkIO::Randomize)
  // was another: every line read a little differently from native tesseract.
  std::linear_congruential_engine<std::uint_fast64_t, 48271, 0, 2147483647> e;
