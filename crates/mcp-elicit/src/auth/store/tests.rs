use std::os::unix::fs::PermissionsExt;

use super::*;

const SECRET: &[u8] =
    br#"{"access_token":"at-SECRET-1234567890","refresh_token":"rt-SECRET-0987654321"}"#;

fn info(client: &str) -> EntryInfo {
    EntryInfo {
        resource: String::new(),
        issuer: String::new(),
        client_id: client.into(),
        scopes: vec!["mcp".into()],
        expires_at: Some(2_000_000_000),
        refreshable: true,
        saved_at: 1_700_000_000,
    }
}

fn mode(p: &Path) -> u32 {
    fs::metadata(p).expect("metadata").permissions().mode() & 0o777
}

fn store() -> (tempfile::TempDir, TokenFileStore) {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = TokenFileStore::at(dir.path().join("state").join("mcp-elicit").join("auth"));
    (dir, s)
}

#[test]
fn canonical_uris() {
    for (input, want) in [
        ("https://MCP.Example.com/mcp", "https://mcp.example.com/mcp"),
        (
            "https://mcp.example.com:443/mcp#x",
            "https://mcp.example.com/mcp",
        ),
        ("https://mcp.example.com/", "https://mcp.example.com"),
        ("https://mcp.example.com", "https://mcp.example.com"),
        ("http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"),
        (
            "https://mcp.example.com/mcp/",
            "https://mcp.example.com/mcp/",
        ),
    ] {
        assert_eq!(canonical_resource(input).as_deref(), Ok(want), "{input}");
    }
    assert!(canonical_resource("stdio:server").is_err());
    assert!(canonical_resource("/mcp").is_err());
}

#[test]
fn saves_private_files_and_reads_them_back() {
    let (_t, s) = store();
    let key =
        EntryKey::new("https://MCP.example.com/mcp", "https://auth.example.com/").expect("key");
    assert_eq!(s.load(&key), Ok(None));
    s.save(&key, info("cli"), SECRET).expect("save");
    assert_eq!(mode(s.dir()), 0o700);
    assert_eq!(mode(&s.dir().join("key")), 0o600);
    let files: Vec<PathBuf> = fs::read_dir(s.dir())
        .expect("read_dir")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
    for f in &files {
        assert_eq!(mode(f), 0o600, "{}", f.display());
        let text = fs::read_to_string(f).expect("read");
        assert!(
            !text.contains("SECRET"),
            "a token in clear in {}",
            f.display()
        );
    }
    let (got, secret) = s.load(&key).expect("load").expect("entry");
    assert_eq!(&secret[..], SECRET);
    assert_eq!(got.resource, "https://mcp.example.com/mcp");
    assert_eq!(got.issuer, "https://auth.example.com");
    assert_eq!(got.client_id, "cli");
    // Replacing keeps one file and leaves no temporary behind.
    s.save(&key, info("cli2"), b"{}").expect("save again");
    assert_eq!(fs::read_dir(s.dir()).expect("read_dir").count(), 2);
    assert_eq!(&s.load(&key).expect("load").expect("entry").1[..], b"{}");
}

#[test]
fn a_file_relabelled_for_another_server_does_not_decrypt() {
    let (_t, s) = store();
    let a = EntryKey::new("https://a.example/mcp", "https://auth.example").expect("key");
    let b = EntryKey::new("https://b.example/mcp", "https://auth.example").expect("key");
    s.save(&a, info("cli"), SECRET).expect("save");
    // Copied under b's name: refused as not b's.
    fs::copy(s.dir().join(a.file_name()), s.dir().join(b.file_name())).expect("copy");
    let e = s.load(&b).expect_err("copied file");
    assert!(
        e.0.contains("is not the sign-in for https://b.example/mcp"),
        "{e}"
    );
    // Relabelled too: the sealed tokens are bound to a, so they do not open for b.
    let path = s.dir().join(b.file_name());
    let text = fs::read_to_string(&path).expect("read");
    fs::write(
        &path,
        text.replace("https://a.example/mcp", "https://b.example/mcp"),
    )
    .expect("write");
    let e = s.load(&b).expect_err("relabelled file");
    assert!(e.0.contains("cannot be decrypted"), "{e}");
    assert!(!e.0.contains("SECRET"));
}

#[test]
fn files_others_can_read_are_refused() {
    let (_t, s) = store();
    let key = EntryKey::new("https://a.example/mcp", "https://auth.example").expect("key");
    s.save(&key, info("cli"), SECRET).expect("save");
    let keyfile = s.dir().join("key");
    fs::set_permissions(&keyfile, fs::Permissions::from_mode(0o644)).expect("chmod");
    let e = s.load(&key).expect_err("readable key");
    assert!(e.0.contains("other users may access it (mode 644)"), "{e}");
    assert!(e.0.contains("chmod 600"), "{e}");
    fs::set_permissions(&keyfile, fs::Permissions::from_mode(0o600)).expect("chmod");
    fs::set_permissions(s.dir(), fs::Permissions::from_mode(0o755)).expect("chmod");
    let e = s
        .save(&key, info("cli"), SECRET)
        .expect_err("open directory");
    assert!(e.0.contains("chmod 700"), "{e}");
}

#[test]
fn a_lost_key_is_reported_not_guessed() {
    let (_t, s) = store();
    let key = EntryKey::new("https://a.example/mcp", "https://auth.example").expect("key");
    s.save(&key, info("cli"), SECRET).expect("save");
    fs::remove_file(s.dir().join("key")).expect("rm key");
    let e = s.load(&key).expect_err("no key");
    assert!(e.0.contains("auth logout"), "{e}");
}

#[test]
fn list_and_remove_by_server() {
    let (_t, s) = store();
    assert_eq!(s.list(), Ok(Vec::new()));
    let a1 = EntryKey::new("https://a.example/mcp", "https://auth1.example").expect("key");
    let a2 = EntryKey::new("https://a.example/mcp", "https://auth2.example").expect("key");
    let b = EntryKey::new("https://b.example/mcp", "https://auth1.example").expect("key");
    for k in [&b, &a2, &a1] {
        s.save(k, info("cli"), SECRET).expect("save");
    }
    fs::write(s.dir().join("junk.json"), "not json").expect("junk");
    let listed = s.list().expect("list");
    let ok: Vec<(String, String)> = listed
        .iter()
        .flatten()
        .map(|i| (i.resource.clone(), i.issuer.clone()))
        .collect();
    assert_eq!(
        ok,
        [
            (
                "https://a.example/mcp".into(),
                "https://auth1.example".into()
            ),
            (
                "https://a.example/mcp".into(),
                "https://auth2.example".into()
            ),
            (
                "https://b.example/mcp".into(),
                "https://auth1.example".into()
            ),
        ]
    );
    assert_eq!(listed.iter().filter(|r| r.is_err()).count(), 1);
    assert_eq!(s.remove_server("https://A.example/mcp#frag"), Ok(2));
    assert_eq!(s.load(&a1), Ok(None));
    assert!(s.load(&b).expect("load").is_some());
    assert_eq!(s.remove_server("https://a.example/mcp"), Ok(0));
}

#[test]
fn default_location_follows_xdg_state_home() {
    // Read-only use of the environment this process already has.
    if let Some(state) = std::env::var_os("XDG_STATE_HOME").filter(|v| !v.is_empty()) {
        if Path::new(&state).is_absolute() {
            let s = TokenFileStore::default_location().expect("location");
            assert_eq!(s.dir(), Path::new(&state).join("mcp-elicit/auth"));
        }
    } else if let Some(home) = std::env::var_os("HOME") {
        let s = TokenFileStore::default_location().expect("location");
        assert_eq!(
            s.dir(),
            Path::new(&home).join(".local/state/mcp-elicit/auth")
        );
    }
}
