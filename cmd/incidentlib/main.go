// Command incidentlib serves the Incident Library site, its JSON API and its MCP endpoint from
// the catalog embedded in the binary (or from a database file given with -db).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/net/netutil"

	"incidentlib/data"
	"incidentlib/internal/catalog"
	"incidentlib/locales"
	"incidentlib/web"
)

// shutdownGrace is how long requests in flight may take to finish after SIGTERM.
const shutdownGrace = 20 * time.Second

// options are the command line.
type options struct {
	addr, dbPath, baseURL string
	rate, renderRate      float64
	trusted               []*net.IPNet
	drain                 time.Duration
	maxConns              int
}

func main() {
	var o options
	flag.StringVar(&o.addr, "addr", ":8080", "address to listen on")
	flag.StringVar(&o.dbPath, "db", "", "catalog database file to serve instead of the embedded one")
	flag.StringVar(&o.baseURL, "base-url", "", "public origin for canonical links, e.g. https://incidents.example.org (default: http://localhost and the port of -addr)")
	flag.Float64Var(&o.rate, "rate", 20, "API and MCP requests per second allowed per client address (0: no limit)")
	flag.Float64Var(&o.renderRate, "render-rate", 20, "pages not yet cached that one client address may have rendered per second (0: no limit)")
	flag.DurationVar(&o.drain, "drain", 5*time.Second, "on SIGTERM, how long /readyz reports not ready before the server stops accepting connections")
	flag.IntVar(&o.maxConns, "max-conns", 4096, "most client connections open at once; more wait to be accepted (0: no limit)")
	trusted := flag.String("trusted-proxy", "", "comma-separated addresses or networks of reverse proxies whose X-Forwarded-For is believed")
	memLimit := flag.String("mem-limit", "192MiB", "soft memory limit of the Go runtime (e.g. 512MiB, 1GiB; 0 for none)")
	var level slog.Level
	flag.TextVar(&level, "log-level", slog.LevelInfo, "log level: debug logs every request and client errors, warn server errors and slow requests")
	flag.Parse()

	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	var err error
	if o.trusted, err = web.ParseCIDRs(*trusted); err != nil {
		fail(log, err)
	}
	limit, err := parseBytes(*memLimit)
	if err != nil {
		fail(log, err)
	}
	if limit > 0 {
		debug.SetMemoryLimit(limit)
	}
	if os.Getenv("GOGC") == "" {
		// Short-lived garbage dominates: collecting less often saves CPU on every request, and
		// the memory limit above makes the collector work harder before the process outgrows it.
		debug.SetGCPercent(200)
	}
	if o.baseURL == "" {
		o.baseURL = defaultBaseURL(o.addr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, log, o); err != nil {
		fail(log, err)
	}
}

func fail(log *slog.Logger, err error) {
	log.Error("server stopped", "err", err)
	os.Exit(1)
}

// parseBytes reads a size such as 512MiB, 1GiB, 300MB or a plain number of bytes.
func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		n      int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("memory limit %q: expected a size such as 512MiB or 1GiB", s)
	}
	return int64(n * float64(mult)), nil
}

// defaultBaseURL is the origin links use when none is configured: this machine on the port the
// server listens on.
func defaultBaseURL(addr string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" || port == "80" {
		return "http://localhost"
	}
	return "http://localhost:" + port
}

func run(ctx context.Context, log *slog.Logger, o options) error {
	addr, dbPath := o.addr, o.dbPath
	start := time.Now()
	var cat *catalog.Store
	var err error
	if dbPath != "" {
		cat, err = catalog.Open(dbPath)
	} else if err = data.Check(); err == nil {
		cat, err = catalog.OpenFS(data.FS, data.DBName)
	}
	if err != nil {
		return err
	}
	defer cat.Close()
	bundle, err := locales.Bundle()
	if err != nil {
		return err
	}
	go func() { // load the listing index before the first visitor asks for it
		if err := cat.Warm(ctx); err != nil {
			log.Error("load catalog index", "err", err)
		}
	}()
	srv := web.New(web.Config{Catalog: cat, Bundle: bundle, Logger: log, BaseURL: o.baseURL,
		RateLimit: o.rate, RateBurst: int(o.rate * 2), RenderRate: o.renderRate, RenderBurst: int(o.renderRate * 2),
		TrustedProxies: o.trusted})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if o.maxConns > 0 {
		// Each connection holds buffers and a goroutine: the cap keeps memory within the
		// budget however many clients connect at once.
		ln = netutil.LimitListener(ln, o.maxConns)
	}
	log.Info("serving", "addr", ln.Addr().String(), "cases", cat.Count(), "startup", time.Since(start).String())
	return serve(ctx, log, ln, srv, o.drain)
}

// drainer is a handler that can be told the server is about to stop.
type drainer interface {
	http.Handler
	Drain()
}

// serve answers on ln until ctx ends. Then it drains: for the drain period /readyz reports not
// ready, so load balancers stop sending requests, while every request is still answered; then
// it stops taking connections and lets the requests in flight finish (up to shutdownGrace).
func serve(ctx context.Context, log *slog.Logger, ln net.Listener, h drainer, drain time.Duration) error {
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,  // slow clients cannot hold a connection open
		ReadTimeout:       15 * time.Second, // request bodies are small (64 KiB at most)
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       90 * time.Second,
		MaxHeaderBytes:    32 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("draining: not ready, still answering", "for", drain.String())
	// Keep-alives stay on while draining: every answer now says Connection: close, so each
	// client leaves after the answer it is reading, and none loses a request it already sent.
	// Shutdown turns them off and closes what is idle.
	h.Drain()
	select {
	case <-time.After(drain):
	case err := <-errc:
		return err
	}
	log.Info("shutting down: finishing requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
