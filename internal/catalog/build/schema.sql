-- The catalog database. Built once by cmd/catalog, then only read.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- One row per case; num is the numeric part of the id.
CREATE TABLE cases (
  num INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  org TEXT NOT NULL,
  date TEXT NOT NULL,          -- YYYY-MM-DD, YYYY-MM or YYYY (UTC)
  year INTEGER NOT NULL,
  severity TEXT NOT NULL,      -- '' when unknown
  time_to_detect INTEGER,      -- minutes, NULL when unknown
  time_to_resolve INTEGER      -- minutes, NULL when unknown
);
CREATE INDEX cases_date ON cases (date DESC, num DESC);

-- The prose of each case per language; lists are JSON arrays of strings.
CREATE TABLE case_text (
  num INTEGER NOT NULL REFERENCES cases (num),
  lang TEXT NOT NULL,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  region TEXT NOT NULL,
  scope TEXT NOT NULL,
  users_affected TEXT NOT NULL,
  symptoms TEXT NOT NULL,
  trigger TEXT NOT NULL,
  detection TEXT NOT NULL,
  remediation TEXT NOT NULL,
  action_items TEXT NOT NULL,
  lessons TEXT NOT NULL,
  PRIMARY KEY (num, lang)
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

-- Full-text index over both languages. Text is stored pre-analysed (see catalog.IndexText):
-- Hangul as character bigrams, everything else as lowercase words that porter stems.
CREATE VIRTUAL TABLE case_fts USING fts5 (
  id, title, summary, body, tags,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
