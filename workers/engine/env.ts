/** The bindings the engine Worker uses (a subset of the generated `Env`). */
export type EngineEnv = Pick<Env, "FILES" | "MODELS" | "BROWSER">;
