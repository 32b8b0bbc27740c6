-- The catalog database. Built once by cmd/catalog, then only read.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- One row per case; num is the numeric part of the id.
CREATE TABLE cases (
  num INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  org TEXT NOT NULL,
  date TEXT NOT NULL,          -- YYYY-MM-DD, YYYY-MM or YYYY, in zone (UTC when zone is '')
  year INTEGER NOT NULL,
  severity TEXT NOT NULL,      -- '' when unknown
  time_to_detect INTEGER,      -- minutes, NULL when unknown
  time_to_resolve INTEGER,     -- minutes, NULL when unknown
  timeline TEXT NOT NULL,      -- JSON array of {"at","mark","en","ko"}, in time order
  zone TEXT NOT NULL,          -- IANA zone the date is the local day of; '' for UTC
  added TEXT NOT NULL,         -- YYYY-MM-DD the case entered the catalog
  revised TEXT NOT NULL        -- YYYY-MM-DD it last changed, or ''
);
CREATE INDEX cases_added ON cases (added DESC, num DESC);
CREATE INDEX cases_date ON cases (date DESC, num DESC);

-- The prose of each case per language: the columns lists and cards read, and the whole text
-- as JSON (catalog.Text), so a new prose field needs no new column.
CREATE TABLE case_text (
  num INTEGER NOT NULL REFERENCES cases (num),
  lang TEXT NOT NULL,
  title TEXT NOT NULL,
  headline TEXT NOT NULL,
  summary TEXT NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (num, lang)
) WITHOUT ROWID;

-- Checks: things to check in your own system, and the action items of cases behind them.
CREATE TABLE checks (
  slug TEXT PRIMARY KEY,
  pos INTEGER NOT NULL,
  components TEXT NOT NULL,    -- JSON array of component slugs
  factors TEXT NOT NULL,       -- JSON array of factor slugs
  title_en TEXT NOT NULL,
  title_ko TEXT NOT NULL,
  why_en TEXT NOT NULL,
  why_ko TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE case_checks (
  num INTEGER NOT NULL REFERENCES cases (num),
  slug TEXT NOT NULL REFERENCES checks (slug),
  items TEXT NOT NULL,         -- JSON array of action item positions, from 1
  PRIMARY KEY (slug, num)
) WITHOUT ROWID;

-- Every filterable value of a case: causes, symptoms, components, factors (pos keeps the
-- author's order, 0 is the main one), its organization and its year.
CREATE TABLE tags (
  num INTEGER NOT NULL REFERENCES cases (num),
  kind TEXT NOT NULL,
  slug TEXT NOT NULL,
  pos INTEGER NOT NULL,
  PRIMARY KEY (kind, slug, num)
) WITHOUT ROWID;
CREATE INDEX tags_case ON tags (num, kind, pos);

-- The vocabulary and the organizations (kind 'org'), with labels in both languages.
CREATE TABLE terms (
  kind TEXT NOT NULL,
  slug TEXT NOT NULL,
  pos INTEGER NOT NULL,
  label_en TEXT NOT NULL,
  label_ko TEXT NOT NULL,
  definition_en TEXT NOT NULL,
  definition_ko TEXT NOT NULL,
  aliases TEXT NOT NULL,       -- JSON array
  country TEXT NOT NULL,       -- organizations: ISO 3166 two-letter code, or ''
  PRIMARY KEY (kind, slug)
) WITHOUT ROWID;

CREATE TABLE sources (
  num INTEGER NOT NULL REFERENCES cases (num),
  pos INTEGER NOT NULL,
  url TEXT NOT NULL,
  kind TEXT NOT NULL,
  archive TEXT NOT NULL,
  title TEXT NOT NULL,
  PRIMARY KEY (num, pos)
) WITHOUT ROWID;

-- Related cases computed at build time, best first.
CREATE TABLE related (
  num INTEGER NOT NULL REFERENCES cases (num),
  pos INTEGER NOT NULL,
  other INTEGER NOT NULL REFERENCES cases (num),
  score REAL NOT NULL,
  reasons TEXT NOT NULL,       -- JSON array of {"kind","slug"}
  PRIMARY KEY (num, pos)
) WITHOUT ROWID;

-- Links between cases: "same-event" (editors' same_event, both ways) and "earlier-at-same-org"
-- (the organization's earlier cases, nearest first), computed at build time.
CREATE TABLE case_links (
  num INTEGER NOT NULL REFERENCES cases (num),
  kind TEXT NOT NULL,
  pos INTEGER NOT NULL,
  other INTEGER NOT NULL REFERENCES cases (num),
  PRIMARY KEY (num, kind, pos)
) WITHOUT ROWID;

-- Full-text index over both languages. Text is stored pre-analysed (see catalog.IndexText):
-- Hangul as character bigrams, everything else as lowercase words that porter stems.
CREATE VIRTUAL TABLE case_fts USING fts5 (
  id, title, summary, body, tags,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- The open-data release: the whole catalog as gzip-compressed JSON Lines and CSV (build/export.go).
CREATE TABLE files (name TEXT PRIMARY KEY, body BLOB NOT NULL);
