// `api-v1-conformance/report` is types only (`report-types.ts`, built to dist/types/src/report-types.d.ts):
// this empty module is what an import of it finds at run time, so that a plain `import` of the
// entry point, or a bundler that keeps type-only imports, does not fail to resolve it.
export {};
