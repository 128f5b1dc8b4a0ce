package control

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// maxSocketPath is the room in sockaddr_un.sun_path, less the NUL.
const maxSocketPath = 107

// umaskMu serialises our umask changes: the umask is per process, so two
// servers binding at once would otherwise restore each other's values.
var umaskMu sync.Mutex

// socketFile identifies the socket this server created, so that shutdown
// removes it only if it is still ours.
type socketFile struct {
	path     string
	dev, ino uint64
}

// listenSocket binds a Unix stream socket at path that is never reachable
// with looser permissions than 0600 (0660 with a group, 0666 when world is
// set because two groups must reach it): the mode comes from
// the umask in force during bind(2), so there is no chmod window. A socket
// file already at path is replaced only when nothing answers on it.
func listenSocket(path string, gid int, world bool) (*net.UnixListener, socketFile, error) {
	if path == "" {
		return nil, socketFile{}, errors.New("control socket path is empty")
	}
	if len(path) > maxSocketPath {
		return nil, socketFile{}, fmt.Errorf("control socket path %q: path too long (%d bytes; Unix sockets allow at most %d)", path, len(path), maxSocketPath)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, socketFile{}, fmt.Errorf("control socket path %q: no such directory: %q does not exist; create it first", path, dir)
		}
		return nil, socketFile{}, fmt.Errorf("control socket directory: %w", err)
	}
	if !fi.IsDir() {
		return nil, socketFile{}, fmt.Errorf("control socket path %q: %q is not a directory", path, dir)
	}
	if err := removeStale(path); err != nil {
		return nil, socketFile{}, err
	}

	mask, perm := 0o177, os.FileMode(0o600)
	if gid >= 0 {
		mask, perm = 0o117, 0o660
	}
	if world {
		// Peers are told apart by SO_PEERCRED alone (see socketAccess).
		mask, perm = 0o111, 0o666
	}
	umaskMu.Lock()
	old := unix.Umask(mask)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	unix.Umask(old)
	umaskMu.Unlock()
	if err != nil {
		return nil, socketFile{}, fmt.Errorf("control socket: %w", err)
	}
	// We remove the file ourselves, and only if it is still ours.
	ln.SetUnlinkOnClose(false)

	sf, err := statSocket(path)
	if err == nil && gid >= 0 {
		if err = os.Lchown(path, -1, gid); err != nil {
			err = fmt.Errorf("control socket: giving it to group %d: %w", gid, err)
		}
	}
	if err == nil {
		var st os.FileInfo
		if st, err = os.Lstat(path); err == nil && st.Mode().Perm() != perm {
			err = fmt.Errorf("control socket %q has mode %v, want %v", path, st.Mode().Perm(), perm)
		}
	}
	if err != nil {
		ln.Close()
		sf.remove()
		return nil, socketFile{}, err
	}
	return ln, sf, nil
}

// removeStale deletes a leftover socket file at path when no server answers
// on it. Anything else at path is an error: never delete a live server's
// socket, or a file that is not a socket.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("control socket: %w", err)
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("control socket path %q exists and is not a socket; not removing it", path)
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		c.Close()
		return fmt.Errorf("control socket %q is in use by a running server", path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("control socket %q exists and cannot be probed (%w); not removing it", path, err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("control socket: removing stale %q: %w", path, err)
	}
	return nil
}

func statSocket(path string) (socketFile, error) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return socketFile{}, fmt.Errorf("control socket: %w", err)
	}
	return socketFile{path: path, dev: uint64(st.Dev), ino: st.Ino}, nil
}

// remove deletes the socket file if path still names the socket we bound.
func (sf socketFile) remove() {
	if sf.path == "" {
		return
	}
	var st unix.Stat_t
	if unix.Lstat(sf.path, &st) != nil || uint64(st.Dev) != sf.dev || st.Ino != sf.ino {
		return
	}
	os.Remove(sf.path)
}

// peer is the identity of the process at the other end of a connection.
type peer struct {
	pid      int32
	uid, gid uint32
}

// peerCred reads SO_PEERCRED: the credentials the peer had when it
// connected, which it cannot forge.
func peerCred(c *net.UnixConn) (peer, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return peer{}, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return peer{}, err
	}
	if credErr != nil {
		return peer{}, fmt.Errorf("SO_PEERCRED: %w", credErr)
	}
	return peer{pid: cred.Pid, uid: cred.Uid, gid: cred.Gid}, nil
}
