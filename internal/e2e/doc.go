// Package e2e holds end-to-end tests that drive the real pallas-ls binary
// from real editors: Neovim (Debian's, 0.7+) in headless mode, with the
// configuration shipped in editors/nvim, and Emacs with Eglot (Debian's
// emacs-nox and elpa-eglot) in batch mode, with editors/emacs; and a
// minimal JSON-RPC client that compares the labels `check -v` prints with
// the inlay hints `serve` answers (PALLAS_REALTREE adds a real tree). It
// has no non-test code.
package e2e
