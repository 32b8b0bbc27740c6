// Package web serves the site, the JSON API and the MCP endpoint over the catalog with echo.
// Handlers check input, ask the store once, and render one views component.
package web

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"incidentlib/internal/catalog"
)

// Config is what the server needs besides the catalog.
type Config struct {
	Catalog *catalog.Store
	Bundle  *i18n.Bundle
	Logger  *slog.Logger
	// BaseURL is the public origin for canonical links, feeds and the sitemap, e.g.
	// "https://incidents.example.org". The request's Host is never used: answers are the same for
	// every host, so a made-up Host can neither poison links nor fill the cache. Empty means
	// "http://localhost".
	BaseURL string
	// RequestTimeout bounds the work of one request; the database query is cancelled with it.
	RequestTimeout time.Duration
	// RateLimit is the sustained number of API and MCP requests per second one client address
	// may make, with bursts of RateBurst. Zero disables the limit.
	RateLimit float64
	RateBurst int
	// RenderRate is the sustained number of answers not yet in the cache that one client address
	// may have rendered per second, with bursts of RenderBurst. Zero disables the limit.
	RenderRate  float64
	RenderBurst int
	// TrustedProxies are the networks of reverse proxies whose X-Forwarded-For is believed. A
	// request from anywhere else is known by its own address.
	TrustedProxies []*net.IPNet
}

// Server is the site.
type Server struct {
	e          *echo.Echo
	cat        *catalog.Store
	log        *slog.Logger
	localizers map[catalog.Lang]*i18n.Localizer
	cfg        Config
	metrics    *metrics
	cache      *responseCache
	idPrefix   string        // request ids of the fast path: a random prefix and a counter
	renders    chan struct{} // slots for rendering answers not in the cache
	renderRate func(client string) bool
	draining   atomic.Bool  // set on shutdown: /readyz says not ready while requests drain
	lastHit    atomic.Int64 // when a cached answer was last served, in Unix nanoseconds
	iconsOnce  sync.Once
	icons      map[int][]byte // site icon PNGs by size
	iconsErr   error
	refusals   sync.Map // lang -> the page answering a client over its render budget
	cookies    map[catalog.Lang]string
}

// renderSlots is how many answers are rendered at once; more wait their turn in order. One per
// CPU, so cached answers always find a CPU between renders, and never more than the catalog's
// connections, so no render waits inside the database pool.
func renderSlots() int { return max(1, min(runtime.GOMAXPROCS(0), catalog.MaxConns)) }

// New builds the server and its routes.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = 10 * time.Second
	}
	s := &Server{e: echo.New(), cat: cfg.Catalog, log: cfg.Logger, cfg: cfg, localizers: map[catalog.Lang]*i18n.Localizer{}, metrics: newMetrics(), cache: newResponseCache()}
	for _, lang := range catalog.Langs {
		s.localizers[lang] = i18n.NewLocalizer(cfg.Bundle, string(lang))
	}
	s.idPrefix = randomPrefix()
	s.cookies = langCookies(cfg.BaseURL)
	s.renders = make(chan struct{}, renderSlots())
	s.renderRate = perClient(cfg.RenderRate, cfg.RenderBurst)
	s.e.IPExtractor = clientIP(cfg.TrustedProxies)
	s.e.HideBanner = true
	s.e.HidePort = true
	s.e.HTTPErrorHandler = s.handleError
	s.middleware()
	s.routes()
	return s
}

// ServeHTTP makes the server an http.Handler. Pages already rendered are answered from memory
// before echo routes the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w, r, done := s.prepare(w, r)
	if done {
		return
	}
	if s.draining.Load() {
		w.Header().Set("Connection", "close") // keep-alive clients move to another replica
	}
	if s.serveFast(w, r) {
		return
	}
	s.e.ServeHTTP(w, r)
}

// render writes a page only after it rendered completely, so a failure is a clean error page.
func render(c echo.Context, status int, page templ.Component) error {
	var buf bytes.Buffer
	if err := page.Render(c.Request().Context(), &buf); err != nil {
		return fmt.Errorf("render %s: %w", c.Path(), err)
	}
	return c.HTMLBlob(status, buf.Bytes())
}

func randomPrefix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b) + "-"
}

// Drain makes /readyz report not ready, so load balancers stop sending new requests, and asks
// keep-alive clients to close their connections. Requests keep being answered.
func (s *Server) Drain() { s.draining.Store(true) }
