package web

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"incidentlib/internal/catalog"
	"incidentlib/static"
	"incidentlib/views"
)

func errorsIsNotFound(err error) bool { return errors.Is(err, catalog.ErrNotFound) }

// contentSecurityPolicy allows nothing inline: scripts and styles come from our own files.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

func (s *Server) middleware() {
	e := s.e
	e.Pre(middleware.RequestID())
	e.Pre(s.onlyGET)
	e.Use(s.observe)
	e.Use(middleware.Recover())
	e.Use(s.securityHeaders)
	e.Use(middleware.BodyLimit("64K"))
	e.Use(s.timeout)
}

// securityHeaders sets strict headers on every response.
func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		securityHeaders(c.Response().Header())
		return next(c)
	}
}

// securityHeaders are the strict headers of every answer, the edge's redirects included.
// frame-ancestors 'none' in the CSP replaces X-Frame-Options; every header costs on each
// answer, so only the ones that protect something are sent.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
}

// timeout bounds a request's work: its context ends after RequestTimeout, which cancels the
// database query, and the error handler answers 503.
func (s *Server) timeout(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().URL.Path == "/mcp" {
			return next(c) // streams keep their own lifetime
		}
		ctx, cancel := contextWithTimeout(c.Request().Context(), s.cfg.RequestTimeout)
		defer cancel()
		c.SetRequest(c.Request().WithContext(ctx))
		return next(c)
	}
}

// gzipETag is the ETag of an answer's gzip body, made from the ETag of its plain body.
func gzipETag(etag string) string { return strings.TrimSuffix(etag, `"`) + `-gz"` }

// serveStatic serves content-hashed assets with immutable caching and precompressed bodies.
func (s *Server) serveStatic(c echo.Context) error {
	a, ok := static.Lookup(c.Param("*"))
	if !ok {
		return echo.ErrNotFound
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("Vary", "Accept-Encoding")
	body, etag := a.Body, a.ETag
	gz := a.Gzip != nil && acceptsGzip(c.Request().Header.Get("Accept-Encoding"))
	if gz {
		// each encoding is its own representation, with its own ETag (RFC 9110, 8.8.3)
		body, etag = a.Gzip, gzipETag(a.ETag)
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("ETag", etag)
	if etagMatches(c.Request().Header.Get("If-None-Match"), etag) {
		h.Del("Content-Encoding")
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, a.ContentType, body)
}

// healthz reports that the process is alive. It checks nothing else.
func (s *Server) healthz(c echo.Context) error {
	return c.String(http.StatusOK, "ok\n")
}

// readyz reports whether the database answers and the listing index is loaded, so a load
// balancer sends traffic only to a warm replica. It depends on nothing remote.
func (s *Server) readyz(c echo.Context) error {
	if s.draining.Load() {
		return c.String(http.StatusServiceUnavailable, "draining: shutting down\n")
	}
	if !s.cat.Ready() {
		return c.String(http.StatusServiceUnavailable, "loading the catalog index\n")
	}
	ctx, cancel := contextWithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.cat.Ping(ctx); err != nil {
		return c.String(http.StatusServiceUnavailable, "catalog unavailable\n")
	}
	return c.String(http.StatusOK, "ready\n")
}

var contextWithTimeout = context.WithTimeout

// icon serves the site icon: /favicon.ico (16, 32 and 48 px PNGs in an ICO), /favicon.png
// (32 px) and /apple-touch-icon.png (180 px). They are drawn once, then kept.
func (s *Server) icon(c echo.Context) error {
	s.iconsOnce.Do(func() {
		s.icons = map[int][]byte{}
		for _, size := range []int{16, 32, 48, 180} {
			b, err := views.IconPNG(size)
			if err != nil {
				s.iconsErr = err
				return
			}
			s.icons[size] = b
		}
	})
	if s.iconsErr != nil {
		return s.iconsErr
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=604800")
	switch c.Request().URL.Path {
	case "/favicon.ico":
		return c.Blob(http.StatusOK, "image/x-icon", views.ICO(s.icons, []int{16, 32, 48}))
	case "/apple-touch-icon.png":
		return c.Blob(http.StatusOK, "image/png", s.icons[180])
	}
	return c.Blob(http.StatusOK, "image/png", s.icons[32])
}
