// Svelte's config, read by the Vite plugin, svelte-check and eslint-plugin-svelte alike.
// Svelte 5 understands `lang="ts"` natively (type-only syntax), so no preprocessor is needed.
export default {
  compilerOptions: { runes: true },
};
