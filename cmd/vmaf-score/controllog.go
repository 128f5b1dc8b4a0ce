package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
)

// openControlLog opens --control-log: where the control plane writes who
// connected, who was refused, and every swap, pause and resume with the
// peer's pid and uid (or an HTTP client's address), one slog text record
// a line. "-" is stderr. With no --control-log the log goes nowhere (the
// logger is nil) and the closer is nil.
func (s *settings) openControlLog(stderr io.Writer) (*slog.Logger, io.Closer, error) {
	switch s.controlLog {
	case "":
		return nil, nil, nil
	case "-":
		return slog.New(slog.NewTextHandler(stderr, nil)), nil, nil
	}
	// Appended to, so that runs logging to one file keep each other's
	// records; 0600 since records name the users that connected.
	f, err := os.OpenFile(s.controlLog, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("--control-log: %w", err)
	}
	return slog.New(slog.NewTextHandler(f, nil)), f, nil
}

// loggedServer closes the control log after the server, whose last
// records (clients leaving, the plane closing) go to it.
type loggedServer struct {
	io.Closer
	log io.Closer
}

func (l loggedServer) Close() error {
	err := l.Closer.Close()
	if cerr := l.log.Close(); err == nil {
		err = cerr
	}
	return err
}

// withControlLog makes closing srv close the log too; srv itself when
// there is no log file.
func withControlLog(srv io.Closer, log io.Closer) io.Closer {
	if log == nil || srv == nil {
		return srv
	}
	return loggedServer{srv, log}
}
