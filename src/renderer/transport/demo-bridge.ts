export function createDemoBridge(_s: string): never { throw new Error("todo"); }
