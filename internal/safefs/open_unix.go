//go:build unix

package safefs

import (
	"os"
	"syscall"
)

// openNonBlocking opens for reading without blocking on a FIFO with no
// writer (or a device that would wait), and without making a terminal the
// controlling one. O_NONBLOCK has no effect on reads of regular files.
func openNonBlocking(path string) (*os.File, error) {
	return open(path, 0)
}

// openNoFollow is openNonBlocking that refuses a symlink as the last
// component.
func openNoFollow(path string) (*os.File, error) {
	return open(path, syscall.O_NOFOLLOW)
}

func open(path string, extra int) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC|extra, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
