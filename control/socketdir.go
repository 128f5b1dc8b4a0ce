package control

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// sharedSocketDirEnv, set to 1, lets a server bind its socket in a
// directory that others may write without the sticky bit (see
// checkSocketDir); Options.AllowSharedSocketDir does the same.
const sharedSocketDirEnv = "VMAFSINK_ALLOW_SHARED_SOCKET_DIR"

// checkSocketDir refuses a socket directory where another user could
// replace the socket with one of their own, so that clients would talk to
// an impostor: one writable by group or others without the sticky bit
// (in a sticky directory, such as /tmp, only a file's owner may remove or
// rename it), or one owned by another user, who may change its mode at
// will. A missing directory is left to the bind, which says so.
func checkSocketDir(path string, allowShared bool) error {
	dir := filepath.Dir(path)
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return nil
	}
	if allowShared || os.Getenv(sharedSocketDirEnv) == "1" {
		return nil
	}
	uid := os.Geteuid()
	switch {
	case st.Uid != uint32(uid) && st.Uid != 0:
		return fmt.Errorf("control socket path %q: directory %q belongs to uid %d, who could replace the socket with an impostor; use a directory of your own or root's (or set %s=1 to accept it)",
			path, dir, st.Uid, sharedSocketDirEnv)
	case st.Mode&0o022 != 0 && st.Mode&unix.S_ISVTX == 0:
		who := "others"
		if st.Mode&0o002 == 0 {
			who = "its group"
		}
		return fmt.Errorf("control socket path %q: directory %q (mode %04o) is writable by %s without the sticky bit, so another user could replace the socket with an impostor; use a private directory, or a sticky one such as /tmp (or set %s=1 to accept it)",
			path, dir, st.Mode&0o7777, who, sharedSocketDirEnv)
	}
	return nil
}
