package web

import "github.com/labstack/echo/v4"

// routes registers every route. Permalinks are promises: they are listed here and nowhere else.
func (s *Server) routes() {
	e := s.e
	e.GET("/", s.redirectToLang)
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/static/*", s.serveStatic)
	e.GET("/sitemap.xml", s.sitemap, s.cached)
	e.GET("/robots.txt", s.robots, s.cached)
	e.GET("/metrics", s.metricsHandler())
	e.GET("/lang/:lang", s.switchLang)
	e.GET("/data/incidentlib.jsonl.gz", s.downloadFile("jsonl"))
	e.GET("/data/incidentlib.csv.gz", s.downloadFile("csv"))
	e.GET("/data/incidentlib.schema.json", s.downloadFile("schema"))
	e.GET("/favicon.ico", s.icon, s.cached)
	e.GET("/favicon.png", s.icon, s.cached)
	e.GET("/apple-touch-icon.png", s.icon, s.cached)

	api := e.Group("/api/v1", s.cors, s.rateLimit(), s.cached)
	api.GET("", s.apiIndex)
	api.GET("/cases", s.apiCases)
	api.GET("/cases/:id", s.apiCase)
	api.GET("/cases/:id/similar", s.apiSimilar)
	api.GET("/similar", s.apiLike)
	api.GET("/cases/:id/cite", s.apiCite)
	api.GET("/vocab", s.apiVocab)
	api.GET("/topics/:kind/:slug", s.apiTopic)
	api.GET("/openapi.json", s.apiOpenAPI)
	api.GET("/release", s.apiRelease)
	api.GET("/checks", s.apiChecks)
	api.GET("/checks/:slug", s.apiCheck)
	api.Any("/*", func(echo.Context) error { return echo.ErrNotFound })
	e.GET("/api/v1/export", s.apiExport, s.cors, s.rateLimit())
	e.Any("/mcp", s.mcp(), s.rateLimit())

	l := e.Group("/:lang", s.withLocale, s.cached)
	l.GET("", s.redirectToSlash)
	l.GET("/", s.listCases)
	l.GET("/cases/:id", s.showCase)
	l.GET("/cases/:id/card.png", s.caseCard)
	l.GET("/graph", s.showGraph)
	l.GET("/checks", s.showChecks)
	l.GET("/stats", s.showStats)
	l.GET("/checks/:slug", s.showCheck)
	l.GET("/api", s.showAPIPage)
	l.GET("/like", s.showLike)
	l.GET("/data", s.showData)
	l.GET("/feed.xml", s.feed)
	l.GET("/:kinds", s.showIndex)
	l.GET("/:kinds/:slug", s.showTopic)

	// Anything else: a path without a language is redirected, the rest is a 404 page.
	e.Any("/*", s.fallback)
}
