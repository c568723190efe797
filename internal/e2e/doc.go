// Package e2e holds end-to-end tests that drive the real pallas-ls binary
// from a real editor: Neovim (Debian's, 0.7+) in headless mode, with the
// configuration shipped in editors/nvim. It has no non-test code.
package e2e
