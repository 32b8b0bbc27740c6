package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"
)

// A request in flight when shutdown starts still gets its full answer, and new connections are
// refused afterwards.
func TestGracefulShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	h := plainDrainer{http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		io.WriteString(w, "finished")
	})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)), ln, h, 0) }()

	url := "http://" + ln.Addr().String() + "/"
	type result struct {
		body string
		err  error
	}
	res := make(chan result, 1)
	go func() {
		resp, err := http.Get(url)
		if err != nil {
			res <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		res <- result{string(b), err}
	}()
	<-started
	cancel() // as SIGTERM does
	r := <-res
	if r.err != nil || r.body != "finished" {
		t.Fatalf("request in flight = %q, %v; want it finished", r.body, r.err)
	}
	if err := <-done; err != nil {
		t.Fatalf("serve = %v, want a clean stop", err)
	}
	if _, err := http.Get(url); err == nil {
		t.Error("the server still accepts connections after shutdown")
	}
}

// The server starts on the embedded catalog and answers its health checks.
func TestRunServesEmbeddedCatalog(t *testing.T) {
	addr, cancel, done := startRun(t, options{baseURL: "http://localhost"})
	// /readyz answers 503 until the catalog index is loaded; wait for 200, bounded.
	var resp *http.Response
	var err error
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if resp, err = http.Get("http://" + addr + "/readyz"); err == nil {
			if resp.StatusCode == 200 {
				break
			}
			resp.Body.Close()
		}
	}
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("/readyz = %v, %v", resp, err)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

type plainDrainer struct{ http.Handler }

func (plainDrainer) Drain() {}

// On SIGTERM the server first reports not ready for the drain period while it keeps answering,
// so a load balancer moves traffic away before connections are refused; keep-alive clients see
// no errors.
func TestShutdownDrains(t *testing.T) {
	addr, cancel, done := startRun(t, options{baseURL: "http://localhost", drain: 600 * time.Millisecond})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	status := func(path string) int {
		resp, err := client.Get("http://" + addr + path)
		if err != nil {
			return -1
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for deadline := time.Now().Add(15 * time.Second); status("/readyz") != 200; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("never ready")
		}
	}
	if got := status("/en/cases/IL-0016"); got != 200 {
		t.Fatalf("case page = %d before shutdown", got)
	}
	cancel() // as SIGTERM does
	time.Sleep(100 * time.Millisecond)
	if got := status("/readyz"); got != 503 {
		t.Errorf("/readyz while draining = %d, want 503", got)
	}
	for i := 0; i < 5; i++ {
		if got := status("/en/cases/IL-0016"); got != 200 {
			t.Errorf("request %d while draining = %d, want 200", i, got)
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("run = %v, want a clean stop", err)
	}
	if got := status("/healthz"); got != -1 {
		t.Errorf("after the drain the server still answers (%d)", got)
	}
}

// A keep-alive client that sent its request just after SIGTERM gets its answer, told to close
// the connection, instead of finding the connection closed under it.
func TestDrainKeepsKeepAliveRequests(t *testing.T) {
	addr, cancel, done := startRun(t, options{baseURL: "http://localhost", drain: 800 * time.Millisecond})
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("never ready")
		}
	}
	var conns []net.Conn
	var readers []*bufio.Reader
	ask := func(i int) (*http.Response, error) {
		fmt.Fprintf(conns[i], "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
		resp, err := http.ReadResponse(readers[i], nil)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return resp, err
	}
	for i := range 16 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns, readers = append(conns, c), append(readers, bufio.NewReader(c))
		if _, err := ask(i); err != nil {
			t.Fatal(err)
		}
	}
	cancel() // as SIGTERM does; the 16 connections are idle
	time.Sleep(100 * time.Millisecond)
	for i := range conns {
		resp, err := ask(i)
		if err != nil {
			t.Errorf("keep-alive client %d lost its request during the drain: %v", i, err)
			continue
		}
		if !resp.Close {
			t.Errorf("client %d: the answer during the drain does not say Connection: close", i)
		}
	}
}

// startRun runs the server on a free local port with opts; cancel stops it and done gives what
// run returned.
func startRun(t *testing.T, opts options) (addr string, cancel context.CancelFunc, done <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts.addr = ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- run(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)), opts) }()
	return opts.addr, cancel, errc
}
