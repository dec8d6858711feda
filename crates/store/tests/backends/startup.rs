//! Several server processes starting at once on one new database all come up (the
//! schema migration runs once; the others wait or find it applied).

use crate::common::TestDb;

pub(crate) async fn nodes_start_together_on_a_new_database(db: &TestDb) {
    let stores = futures::future::join_all((0..8).map(|_| db.connect())).await;
    for store in stores {
        store.close().await;
    }
    // And once more on the now-migrated database.
    db.connect().await.close().await;
}

/// A SQLite file the store creates is readable by its owner only (it holds user names,
/// elicitation messages and ciphertexts).
pub(crate) async fn new_sqlite_files_are_private(db: &TestDb) {
    let store = db.connect().await;
    let Some(path) = db
        .url
        .strip_prefix("sqlite://")
        .and_then(|rest| rest.split('?').next())
    else {
        store.close().await;
        return; // PostgreSQL: access is the server's business.
    };
    #[cfg(unix)]
    for suffix in ["", "-wal", "-shm"] {
        use std::os::unix::fs::PermissionsExt;
        let file = format!("{path}{suffix}");
        // While a connection is open in WAL mode all three files exist.
        let meta = std::fs::metadata(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(
            meta.permissions().mode() & 0o077,
            0,
            "{file} is readable by others"
        );
    }
    store.close().await;
}
