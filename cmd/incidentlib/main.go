// Command incidentlib serves the Incident Library site, its JSON API and its MCP endpoint from
// the catalog embedded in the binary (or from a database file given with -db).
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"incidentlib/data"
	"incidentlib/internal/catalog"
	"incidentlib/locales"
	"incidentlib/web"
)

func main() {
	addr := flag.String("addr", ":8080", "address to listen on")
	dbPath := flag.String("db", "", "catalog database file to serve instead of the embedded one")
	baseURL := flag.String("base-url", "", "public origin for canonical links, e.g. https://incidents.example.org (default: the request's host)")
	rate := flag.Float64("rate", 20, "API and MCP requests per second allowed per client address (0: no limit)")
	flag.Parse()

	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if err := run(log, *addr, *dbPath, *baseURL, *rate); err != nil {
		log.Error("server stopped", "err", err)
		os.Exit(1)
	}
}

func run(log *slog.Logger, addr, dbPath, baseURL string, rate float64) error {
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
	srv := web.New(web.Config{Catalog: cat, Bundle: bundle, Logger: log, BaseURL: baseURL, RateLimit: rate, RateBurst: int(rate * 2)})
	hs := &http.Server{
		Addr:              addr,
		Handler:           srv,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       90 * time.Second,
		MaxHeaderBytes:    32 << 10,
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.ListenAndServe() }()
	log.Info("serving", "addr", addr, "cases", cat.Count(), "startup", time.Since(start).String())
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
