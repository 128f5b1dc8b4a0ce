package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// checkServer makes sure the process behind a control socket is the one
// meant, by its uid from SO_PEERCRED (which it cannot forge): where anyone
// may replace the socket file, an impostor could otherwise answer in the
// server's place and see every command. The server is trusted when it
// runs as this user, as root, or as -server-uid; or, in a directory only
// its owner may rename files in (not writable by group or others, or
// sticky, as /tmp is), when it owns the socket file.
func checkServer(c net.Conn, socket string, wantUID int) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if credErr != nil {
		return fmt.Errorf("reading the server's credentials (SO_PEERCRED): %w", credErr)
	}
	uid := int(cred.Uid)
	if uid == os.Geteuid() || uid == 0 || wantUID >= 0 && uid == wantUID {
		return nil
	}
	if wantUID < 0 && ownedInSafeDir(socket, uid) {
		return nil
	}
	want := fmt.Sprintf("this user (%d) or root", os.Geteuid())
	if wantUID >= 0 {
		want = fmt.Sprintf("uid %d (-server-uid), this user (%d) or root", wantUID, os.Geteuid())
	}
	return fmt.Errorf("the server on %s runs as uid %d (pid %d), not %s; refusing to talk to it: another user may have replaced the socket (give -server-uid UID if that user runs the server)",
		socket, uid, cred.Pid, want)
}

// ownedInSafeDir reports whether uid owns the socket file and its
// directory lets no one else replace it.
func ownedInSafeDir(socket string, uid int) bool {
	var st, dir unix.Stat_t
	if unix.Lstat(socket, &st) != nil || int(st.Uid) != uid {
		return false
	}
	if unix.Stat(filepath.Dir(socket), &dir) != nil {
		return false
	}
	return dir.Mode&unix.S_ISVTX != 0 || dir.Mode&0o022 == 0 && (int(dir.Uid) == uid || dir.Uid == 0)
}
