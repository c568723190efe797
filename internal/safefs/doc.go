// Package safefs holds the few file operations that everything touching a
// user's tree goes through, so that the classes of harm they prevent are
// closed in one place rather than patched per caller:
//
//   - ReadFile (read.go) reads a file only if it is a regular file, opening
//     it non-blocking (a FIFO or a device can never hang or flood the
//     process) and never reading more than a stated limit.
//   - ReadFileIn reads a file only if its real path (every symlink of every
//     component resolved) lies inside a real root; ProjectRoot is the root
//     settings and ignore files may not leave (the enclosing repository).
//   - Write guards (guard.go) let a signal handler stop the process without
//     ever cutting a write in half: writers hold Writing() around their
//     create-write-rename, and StopWrites waits for them and lets no new
//     one start.
//
// The front ends and internal/config, internal/workspace use it; it
// imports nothing of the module.
package safefs
