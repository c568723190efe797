// Package config reads pallas-ls settings and decides the JAX version. It
// sits between the front ends and the engine: the CLI (per checked file,
// through a Resolver) and the language server (per workspace folder) call
// LoadFor / DetectJAXVersion, then Config.Options, and hand the resulting
// analysis.Options to analysis.Check. The exclude globs go to
// workspace.Discover instead (Resolver.ExcludesIn fits
// DiscoverOptions.ConfigExcludes). Nothing here parses Python.
//
// # Where settings come from (spec.md §6)
//
// Walking up from a file or directory, the first directory holding
// .pallas-ls.toml (top-level keys) or a pyproject.toml with a
// [tool.pallas-ls] table supplies all settings; in one directory the dot
// file wins. Files are not merged: the nearest one is the whole truth, as
// with ruff. Keys are kebab-case; snake_case spellings (jax_version,
// shard_map_wrappers, entry_points) are accepted, both at once is an error.
// A file given explicitly (--config FILE) is read as a .pallas-ls.toml,
// unless it is a pyproject.toml or holds only a [tool.pallas-ls] table;
// Config.DetectJAXVersion then uses it in place of the nearest file.
// Unknown keys are collected in Config.UnknownKeys for the CLI to warn
// about, so an older pallas-ls still runs with a newer project's file.
// A pyproject.toml that does not mention pallas-ls is never parsed, so a
// broken or exotic file that is not ours never stops a check; one that does
// mention us must be valid TOML. Errors name the file, and for syntax
// errors file:line:column.
//
// # Reading (read.go, toml.go, resolver.go)
//
// Every file is read through internal/safefs: only regular files, opened
// non-blocking, at most 4 MiB; files found near a checked file and the
// requirements files they include must resolve inside their project (the
// enclosing repository, else the file's own directory). TOML is decoded in
// linear time (only the tables we read, at most 5,000 keys, memoised by
// content). A Resolver never lets a broken settings file stop a run: the
// files it governs get the defaults and the problem is recorded once
// (Resolver.Problems) for the front end to report, with the files the
// version detection refused to read as warnings.
//
// # Which JAX version (spec.md §5)
//
//  1. --jax-version, when given.
//  2. jax-version in the nearest settings file (above).
//  3. The project's jax requirement: the nearest pyproject.toml's
//     [project] dependencies, then optional-dependencies and
//     [dependency-groups] (groups in name order), then Poetry's
//     [tool.poetry.dependencies] and [tool.poetry.group.*.dependencies];
//     then requirements*.txt beside that pyproject (requirements.txt first,
//     following -r/-c includes). Without any pyproject.toml, requirements
//     files are searched upward from the start, stopping at the repository
//     root (.git) so that a file outside the project cannot decide.
//     The first jax requirement that yields a version wins.
//  4. lowering.Latest.
//
// From a requirement we take the version the project is sure to run: the
// exact pin (==, ===, a bare Poetry version), else the ~= or ^/~ base, else
// the >= (or >) lower bound; "==0.4.*" reads as 0.4. Only the distribution
// named jax counts, after PEP 503 normalisation: jaxlib, jax-metal,
// jaxtyping and flax do not. Markers, extras (jax[tpu]), comments and pip
// options are ignored. A requirement with no usable bound (jax<0.5, a URL,
// jax==banana) is skipped, not an error; a malformed version the user typed
// into the flag or a settings file is an error.
package config
