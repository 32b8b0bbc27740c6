package web

// routes registers every route. Permalinks are promises: they are listed here and nowhere else.
func (s *Server) routes() {
	e := s.e
	e.GET("/", s.redirectToLang)
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/static/*", s.serveStatic)

	l := e.Group("/:lang", s.withLocale)
	l.GET("", s.redirectToSlash)
	l.GET("/", s.listCases)
	l.GET("/cases/:id", s.showCase)
	l.GET("/graph", s.showGraph)
	l.GET("/:kinds/:slug", s.showTopic)

	// Anything else: a path without a language is redirected, the rest is a 404 page.
	e.Any("/*", s.fallback)
}
