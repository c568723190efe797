//go:build unix

package cli

import (
	"io/fs"
	"syscall"
)

const nonBlock = syscall.O_NONBLOCK

type owner struct {
	uid, gid int
	links    uint64
	known    bool
}

func ownerOf(st fs.FileInfo) owner {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{links: 1}
	}
	return owner{uid: int(s.Uid), gid: int(s.Gid), links: uint64(s.Nlink), known: true}
}

// writable asks the kernel whether this process may write path, as ruff's
// in-place write would find out. A file nobody may write (0444) is
// read-only even for root, who the kernel would let through: the mode
// says what the user meant.
func writable(path string, mode fs.FileMode) bool {
	if mode.Perm()&0o222 == 0 {
		return false
	}
	return syscall.Access(path, 2 /* W_OK */) == nil
}
