// Command blindgo serves API v1 (workspaces, governance models, records,
// taxonomies, fields, picklists, submissions and API keys) from memory.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const usage = "usage: blindgo [--host H] [--port N] [--window-seconds N]"

type options struct {
	host          string
	port          int
	windowSeconds int64
}

// parseOptions reads the command line; both "--flag value" and
// "--flag=value" work (so do single dashes, as with every Go flag set).
func parseOptions(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("blindgo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.host, "host", "127.0.0.1", "address to listen on")
	fs.IntVar(&o.port, "port", 0, "port to listen on (0: any free port)")
	fs.Int64Var(&o.windowSeconds, "window-seconds", 60, "length of the rate-limit window in seconds")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.host == "":
		return o, errors.New("--host must not be empty")
	case o.port < 0 || o.port > 65535:
		return o, fmt.Errorf("--port must be from 0 to 65535, not %d", o.port)
	case o.windowSeconds < 1 || o.windowSeconds > 1<<31:
		return o, fmt.Errorf("--window-seconds must be from 1 to %d, not %d", int64(1<<31), o.windowSeconds)
	}
	return o, nil
}

// advertisedURL is the base URL to print: the address actually bound, with a
// loopback address in place of a wildcard one (127.0.0.1, or ::1 when the
// wildcard asked for was an IPv6 one).
func advertisedURL(addr net.Addr, host string) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	ip := tcp.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
		if strings.Contains(host, ":") {
			ip = net.IPv6loopback
		}
	}
	return "http://" + net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port))
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func main() {
	log.SetOutput(os.Stderr)
	log.SetPrefix("blindgo: ")
	// Catch SIGINT/SIGTERM from the very start, so that an early signal
	// also ends in a clean exit 0.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)

	opts, err := parseOptions(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "blindgo: %v (%s)\n", err, usage)
		os.Exit(2)
	}

	store := newStore()
	mainKey := store.seed(seedMain)
	otherKey := store.seed(seedOther)
	srv := newServer(store, newLimiter(opts.windowSeconds))

	ln, err := net.Listen("tcp", net.JoinHostPort(opts.host, strconv.Itoa(opts.port)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "blindgo: %v\n", err)
		os.Exit(1)
	}
	httpServer := &http.Server{
		Handler:           srv.handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          log.New(os.Stderr, "blindgo: http: ", log.LstdFlags),
	}

	served := make(chan error, 1)
	go func() { served <- httpServer.Serve(ln) }()

	// The one line on stdout (os.Stdout is unbuffered: written at once).
	fmt.Fprintf(os.Stdout, "{\"url\": %s, \"keys\": {\"main\": %s, \"other\": %s}}\n",
		jsonString(advertisedURL(ln.Addr(), opts.host)), jsonString(mainKey), jsonString(otherKey))

	select {
	case <-sigs:
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		if err := httpServer.Shutdown(ctx); err != nil {
			_ = httpServer.Close()
		}
		cancel()
		os.Exit(0)
	case err := <-served:
		log.Printf("server stopped: %v", err)
		os.Exit(1)
	}
}
