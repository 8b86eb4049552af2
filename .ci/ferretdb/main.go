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
	"bytes"
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
		config.PostgreSQLURL = fmt.Sprintf("%s&pool_max_conns=%d", url, poolConns)
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
	opQuery     = 2004
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
		if free(request) {
			err = relay(request, client, server, true)
		} else {
			one.Lock()
			err = relay(request, client, server, false)
			one.Unlock()
		}
		if err != nil {
			return
		}
	}
}

func relay(request []byte, client, server net.Conn, handshake bool) error {
	if _, err := server.Write(request); err != nil {
		return err
	}
	expectReply := !hasMoreToCome(request)
	for expectReply {
		reply, err := readMessage(server)
		if err != nil {
			return err
		}
		if handshake {
			limitWriteBatches(reply)
		}
		if _, err := client.Write(reply); err != nil {
			return err
		}
		expectReply = hasMoreToCome(reply)
	}
	return nil
}

// free: a request that changes no data and is not held up behind another command: the handshake
// (OP_QUERY) and hello, isMaster and ping, so that the driver's monitor (hello every few seconds,
// with a timeout) never sees the server as gone; and killCursors, which gives back the PostgreSQL
// connection an open cursor holds (FerretDB keeps one per cursor, even after a findOne), so that
// a command waiting for a connection behind the gate is never waiting for a killCursors queued
// behind it.
func free(msg []byte) bool {
	switch binary.LittleEndian.Uint32(msg[12:]) {
	case opQuery:
		return true
	case opMsg:
		// flag bits (4 bytes), section kind 0 (1 byte), the body: its length (4), the type of its
		// first element (1), then the command's name.
		const name = headerBytes + 4 + 1 + 4 + 1
		if len(msg) <= name || msg[headerBytes+4] != 0 {
			return false
		}
		end := bytes.IndexByte(msg[name:], 0)
		if end < 0 {
			return false
		}
		switch string(msg[name : name+end]) {
		case "hello", "isMaster", "ismaster", "ping", "killCursors":
			return true
		}
	}
	return false
}

// FerretDB 1.x holds one PostgreSQL connection for each update of an update command until the
// whole command ends (its loop defers each query's close), and its pool has poolConns of them: a
// command of more updates than that waits forever for a connection. Its hello announces
// maxWriteBatchSize 100,000; the driver splits bulk writes at that size, so the gate announces
// maxWriteBatch instead. MongoDB has no such limit; the gateway's code does not know of it.
const (
	poolConns     = 120
	maxWriteBatch = 100
)

var writeBatchField = []byte("\x10maxWriteBatchSize\x00")

// limitWriteBatches lowers the int32 maxWriteBatchSize of a hello or isMaster reply, in place.
func limitWriteBatches(reply []byte) {
	at := bytes.Index(reply, writeBatchField)
	if at < 0 || at+len(writeBatchField)+4 > len(reply) {
		return
	}
	value := reply[at+len(writeBatchField):]
	if binary.LittleEndian.Uint32(value) > maxWriteBatch {
		binary.LittleEndian.PutUint32(value, maxWriteBatch)
	}
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
