// Package workspace turns what the user named into Python source for the
// engine: PATH arguments -> Discover -> []File -> ReadAll -> []Loaded,
// whose Src the front end parses and hands to analysis.Check. (The language
// server keeps open editor buffers in a document store of its own.)
// Nothing here knows about JAX or Python syntax, and nothing
// here reads settings files: the CLI passes their exclude globs in
// DiscoverOptions (internal/config knows where they come from).
//
// # Which files Discover returns
//
//   - A file named as an argument is always checked, whatever its name or
//     ignore status (spec.md §1), like ruff and gopls.
//   - A directory named as an argument is always walked, even if ignored or
//     on the skip list; rules from above that would hide it are dropped.
//     Inside it only *.py files are taken (not .pyi: stubs never run code).
//   - Ignore files: .gitignore in every walked directory, .git/info/exclude
//     at a repository root, and, when the argument lies inside a git
//     repository, the .gitignore files between the repository root and the
//     argument. They are honoured outside git repositories too (a tarball
//     or a fresh project still means what its .gitignore says), but ignore
//     files above an argument are only read up to the enclosing
//     repository's root, so a stray ~/.gitignore cannot hide a project.
//     The global core.excludesFile is not read (it needs git's config).
//     Matching is git's: the last matching pattern wins, "!" re-includes,
//     "dir/" matches directories only, a pattern with an inner slash is
//     anchored to its file's directory. An ignored directory is not
//     entered, so, as in git, "!" cannot re-include a file inside it.
//   - Settings excludes (gitignore syntax, relative to the settings file's
//     directory) are kept apart from ignore files: a nearer settings file
//     replaces the excludes of one further up (the nearest config wins,
//     spec.md §6), while ignore files accumulate. A "!" in excludes only
//     negates another exclude, it cannot re-include a .gitignored file.
//   - Skipped directories: .git, .venv, venv, site-packages, node_modules,
//     __pycache__ (spec.md §1), tool caches (.hg, .svn, .tox, .nox, .eggs,
//     .mypy_cache, .pytest_cache, .ruff_cache, .pytype, .direnv,
//     .ipynb_checkpoints, __pypackages__), and any directory holding a
//     pyvenv.cfg (a virtual environment under another name). Other dot-
//     directories are walked: .github/ and .ci/ hold real scripts.
//   - Symlinks are followed as their targets. Each real directory is walked
//     once, which both breaks loops and avoids checking one tree twice
//     through two links; Path keeps the spelling through the first link
//     met in name order. Dangling links are skipped silently.
//   - Unreadable directories and ignore files become warnings; the walk
//     goes on. A missing argument is the only fatal error. Ignore files
//     are read through internal/safefs: regular files of at most 4 MiB
//     whose real path stays in the project (a FIFO, /dev/zero or a link
//     out is a warning), and so are sources (at most MaxFileSize).
//   - DiscoverOptions.Budget bounds a walk (files, bytes, directory
//     entries) and DiscoverOptions.Context cancels it; either way the walk
//     keeps what it found and warns. The language server sets a budget.
//
// # Cache
//
// Cache (cache.go, cachetrim.go) keeps check's entries in the marked
// subdirectory CacheSubdir of the directory it is given, each entry with
// its kind and key in a header, and trims only files it can prove it
// wrote.
//
// # Messages
//
// Errors and warnings from this package are complete lines, already
// prefixed "pallas-ls: " ("pallas-ls: warning: " for warnings), that unwrap
// to the underlying cause, so the CLI prints them as they are.
package workspace
