// Serves the MongoDB wire protocol on 127.0.0.1:PORT until SIGTERM or SIGINT: FerretDB 1.24.2,
// embedded as a library (its own command panics without the generated build/version files), over
// PostgreSQL or SQLite, for CI's MongoDB leg.
//
// FerretDB 1.x applies an update by reading the matching document, changing it in Go and writing
// it back by _id in a separate statement, so two concurrent updates of one document can both pass
// their filter and one of them is lost (docs/storage-mongodb.md). MongoDB makes every
// single-document write atomic, and the gateway's store relies on that. So FerretDB listens on a
// Unix socket only, and clients reach it through gate(): one command at a time, each answered
// before the next starts. Commands still interleave between a client's steps, as on MongoDB.
//
// Usage: ferretdb-ci PORT postgresql|sqlite URL SOCKET
package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: ferretdb-ci PORT postgresql|sqlite URL SOCKET")
		os.Exit(64)
	}
	port, handler, url, socket := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	config := ferretdb.Config{
		Listener: ferretdb.ListenerConfig{Unix: socket},
		Handler:  handler,
		// Warnings and errors only: CI reads this log when something fails.
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if handler == "postgresql" {
		config.PostgreSQLURL = url
	} else {
		config.SQLiteURL = url
	}
	f, err := ferretdb.New(&config)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go f.Run(ctx)

	l, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go func() {
		<-ctx.Done()
		l.Close()
	}()
	var one sync.Mutex
	for {
		client, err := l.Accept()
		if err != nil {
			return
		}
		go gate(client, socket, &one)
	}
}

const (
	opMsg       = 2013
	moreToCome  = 1 << 1
	headerBytes = 16
)

// gate relays one client's messages to FerretDB, holding `one` from a request until its last
// reply is relayed (none when the request says moreToCome; several for an exhaust cursor).
func gate(client net.Conn, socket string, one *sync.Mutex) {
	defer client.Close()
	server, err := net.Dial("unix", socket)
	if err != nil {
		slog.Error("cannot reach FerretDB", "err", err)
		return
	}
	defer server.Close()
	for {
		request, err := readMessage(client)
		if err != nil {
			return
		}
		one.Lock()
		err = relay(request, client, server)
		one.Unlock()
		if err != nil {
			return
		}
	}
}

func relay(request []byte, client, server net.Conn) error {
	if _, err := server.Write(request); err != nil {
		return err
	}
	expectReply := !hasMoreToCome(request)
	for expectReply {
		reply, err := readMessage(server)
		if err != nil {
			return err
		}
		if _, err := client.Write(reply); err != nil {
			return err
		}
		expectReply = hasMoreToCome(reply)
	}
	return nil
}

// readMessage reads one wire protocol message: a little-endian int32 length (itself included),
// then the rest of the header and the body.
func readMessage(r io.Reader) ([]byte, error) {
	header := make([]byte, headerBytes)
	if _, err := io.ReadFull(r, header); err != nil {
		return nil, err
	}
	length := int(binary.LittleEndian.Uint32(header))
	if length < headerBytes || length > 64<<20 {
		return nil, fmt.Errorf("bad message length %d", length)
	}
	msg := make([]byte, length)
	copy(msg, header)
	_, err := io.ReadFull(r, msg[headerBytes:])
	return msg, err
}

// hasMoreToCome: an OP_MSG whose flag bits say that another message follows without a request.
func hasMoreToCome(msg []byte) bool {
	return binary.LittleEndian.Uint32(msg[12:]) == opMsg && len(msg) >= headerBytes+4 &&
		binary.LittleEndian.Uint32(msg[headerBytes:])&moreToCome != 0
}
