//! The schema migrations, embedded at build time from `migrations/{sqlite,postgres}/`.
//!
//! Built with [`Migrator::with_migrations`] from `include_str!` instead of
//! `sqlx::migrate!`, which would pull sqlx's proc-macro crate and with it a second build
//! of both database drivers (and of the bundled SQLite C library) for the host. The
//! versions, descriptions and checksums are what `sqlx::migrate!` and `sqlx-cli` compute
//! from the same files (`<version>_<description>.sql`), so either tool can take over a
//! database; a test checks that every file in the folders is listed here, unchanged.

use std::borrow::Cow;

use sqlx::SqlStr;
use sqlx::migrate::{Migration, MigrationType, Migrator};

/// One migration file: version, description, SQL.
pub(crate) type Embedded = (i64, &'static str, &'static str);

/// SQLite migrations, in order.
pub(crate) const SQLITE: &[Embedded] = &[
    (
        1,
        "init",
        include_str!("../migrations/sqlite/0001_init.sql"),
    ),
    (
        2,
        "url flows",
        include_str!("../migrations/sqlite/0002_url_flows.sql"),
    ),
    (
        3,
        "app data",
        include_str!("../migrations/sqlite/0003_app_data.sql"),
    ),
];

/// PostgreSQL migrations, in order.
pub(crate) const POSTGRES: &[Embedded] = &[
    (
        1,
        "init",
        include_str!("../migrations/postgres/0001_init.sql"),
    ),
    (
        2,
        "url flows",
        include_str!("../migrations/postgres/0002_url_flows.sql"),
    ),
    (
        3,
        "app data",
        include_str!("../migrations/postgres/0003_app_data.sql"),
    ),
];

/// A migrator running `files`.
pub(crate) fn migrator(files: &[Embedded]) -> Migrator {
    Migrator::with_migrations(
        files
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    SqlStr::from_static(sql),
                    false,
                )
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn check_folder(folder: &str, embedded: &[Embedded]) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("migrations")
            .join(folder);
        let mut files: Vec<(i64, String, String)> = std::fs::read_dir(&dir)
            .expect("migrations folder")
            .map(|entry| {
                let path = entry.expect("entry").path();
                let name = path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .expect("utf-8 name")
                    .to_owned();
                let (version, description) = name.split_once('_').expect("<version>_<name>.sql");
                let sql = std::fs::read_to_string(&path).expect("readable");
                (
                    version.parse().expect("numeric version"),
                    description.replace('_', " "),
                    sql,
                )
            })
            .collect();
        files.sort();
        let listed: Vec<(i64, String, String)> = embedded
            .iter()
            .map(|&(v, d, s)| (v, d.to_owned(), s.to_owned()))
            .collect();
        assert_eq!(
            files, listed,
            "migrations/{folder} and the embedded list differ"
        );
    }

    #[test]
    fn every_migration_file_is_embedded() {
        check_folder("sqlite", SQLITE);
        check_folder("postgres", POSTGRES);
    }

    #[test]
    fn both_backends_have_the_same_versions() {
        let versions = |m: &[Embedded]| m.iter().map(|&(v, d, _)| (v, d)).collect::<Vec<_>>();
        assert_eq!(versions(SQLITE), versions(POSTGRES));
        let migrator = migrator(SQLITE);
        assert_eq!(migrator.iter().count(), SQLITE.len());
    }
}
