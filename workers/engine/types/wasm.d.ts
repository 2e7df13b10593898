/** The bundler (wrangler's CompiledWasm rule) hands `.wasm` imports over as compiled modules. */
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
