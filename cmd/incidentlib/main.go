// Command incidentlib serves the Incident Library site, its JSON API and its MCP endpoint from
// the catalog embedded in the binary (or from a database file given with -db).
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"incidentlib/data"
	"incidentlib/internal/catalog"
	"incidentlib/locales"
	"incidentlib/web"
)

// shutdownGrace is how long requests in flight may take to finish after SIGTERM.
const shutdownGrace = 20 * time.Second

func main() {
	addr := flag.String("addr", ":8080", "address to listen on")
	dbPath := flag.String("db", "", "catalog database file to serve instead of the embedded one")
	baseURL := flag.String("base-url", "", "public origin for canonical links, e.g. https://incidents.example.org (default: the request's host)")
	rate := flag.Float64("rate", 20, "API and MCP requests per second allowed per client address (0: no limit)")
	var level slog.Level
	flag.TextVar(&level, "log-level", slog.LevelInfo, "log level: debug logs every request, info client errors, warn server errors and slow requests")
	flag.Parse()

	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	if os.Getenv("GOGC") == "" {
		// The heap is small (tens of MiB) and short-lived garbage dominates: collecting less
		// often costs little memory and saves CPU on every request.
		debug.SetGCPercent(400)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, log, *addr, *dbPath, *baseURL, *rate); err != nil {
		log.Error("server stopped", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, log *slog.Logger, addr, dbPath, baseURL string, rate float64) error {
	start := time.Now()
	var cat *catalog.Store
	var err error
	if dbPath != "" {
		cat, err = catalog.Open(dbPath)
	} else {
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
	srv := web.New(web.Config{Catalog: cat, Bundle: bundle, Logger: log, BaseURL: baseURL, RateLimit: rate, RateBurst: int(rate * 2)})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	log.Info("serving", "addr", ln.Addr().String(), "cases", cat.Count(), "startup", time.Since(start).String())
	return serve(ctx, log, ln, srv)
}

// serve answers on ln until ctx ends, then stops taking connections and lets the requests in
// flight finish (up to shutdownGrace).
func serve(ctx context.Context, log *slog.Logger, ln net.Listener, h http.Handler) error {
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
	log.Info("shutting down: finishing requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
