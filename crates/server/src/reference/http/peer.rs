//! Who is on the other end of a loopback connection: the OS user owning the client's
//! socket, so that a local-mode server ([`HttpLimits::only_own_os_user`]) serves the OS
//! user it runs as and no other account on the machine.
//!
//! On Linux the client end of a loopback TCP connection is a row of `/proc/net/tcp`
//! (IPv4) or `/proc/net/tcp6` (IPv6, and IPv4 through v4-mapped addresses) whose local
//! address is the connection's peer address and whose remote address is the server's;
//! its `uid` column is the socket's owner. Rows of sockets no process holds (TIME_WAIT,
//! sockets orphaned by `close`, handshakes in progress) show inode 0, and uid 0 whoever
//! made them: they are never taken as an owner. A row that cannot be found (after a
//! few re-reads: the kernel's table can change while it is read) refuses the
//! connection. Elsewhere than Linux nothing can be told and every connection is
//! admitted (documented in docs/deployment.md).
//!
//! [`HttpLimits::only_own_os_user`]: super::HttpLimits::only_own_os_user

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The uid this process runs as (its effective uid), if it can be told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct OwnUser(Option<u32>);

impl OwnUser {
    /// This process's user: `/proc/self/status` on Linux; unknown elsewhere.
    pub(super) fn current() -> Self {
        #[cfg(target_os = "linux")]
        {
            OwnUser(
                std::fs::read_to_string("/proc/self/status")
                    .ok()
                    .as_deref()
                    .and_then(effective_uid),
            )
        }
        #[cfg(not(target_os = "linux"))]
        {
            OwnUser(None)
        }
    }
}

/// The owner check of one listener: this process's user, the listening address, and
/// the last reading of the kernel's socket tables, shared by every connection.
///
/// Reading `/proc/net/tcp` costs time in proportion to every socket on the machine
/// (about 40 ms for 4,000 sockets on a small VM), so the tables are read by one task
/// at a time and a reading serves every connection accepted before it began: under a
/// flood of connections the check costs one reading at a time, not one per
/// connection.
#[derive(Debug)]
pub(super) struct Checker {
    own: OwnUser,
    server: Option<SocketAddr>,
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    tables: tokio::sync::Mutex<Option<Snapshot>>,
    /// How many times the tables were read.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    readings: std::sync::atomic::AtomicU64,
}

/// One reading of `/proc/net/tcp` and `/proc/net/tcp6`.
#[derive(Debug)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
struct Snapshot {
    began: std::time::Instant,
    table: std::sync::Arc<Table>,
    error: Option<String>,
}

impl Checker {
    /// The check for a server running as `own` and listening on `server` (None: the
    /// address is unknown, every connection is refused on Linux).
    pub(super) fn new(own: OwnUser, server: Option<SocketAddr>) -> Self {
        Checker {
            own,
            server,
            tables: tokio::sync::Mutex::new(None),
            readings: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Whether the connection from `client`, accepted at `accepted`, may be served:
    /// `Err` carries the refusal every request on it gets.
    pub(super) async fn admit(
        &self,
        client: SocketAddr,
        accepted: std::time::Instant,
    ) -> Result<(), String> {
        #[cfg(target_os = "linux")]
        {
            let Some(own) = self.own.0 else {
                return Err(
                    "this local-mode server only serves the OS user it runs as, and it cannot \
                     tell which user that is (/proc/self/status is unreadable): refused"
                        .to_owned(),
                );
            };
            let Some(server) = self.server else {
                return Err(format!(
                    "this local-mode server only serves OS user {own} (the user it runs as), and \
                     it cannot tell its own listening address: refused"
                ));
            };
            match self.owner(client, server, accepted).await {
                Ok(uid) if uid == own => Ok(()),
                Ok(uid) => Err(format!(
                    "this local-mode server only serves OS user {own} (the user it runs as); \
                     this connection comes from OS user {uid}: run a server of your own as that \
                     user, or one with authorization"
                )),
                Err(why) => Err(format!(
                    "this local-mode server only serves OS user {own} (the user it runs as), and \
                     the owner of this connection could not be told ({why}): refused"
                )),
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (client, accepted, &self.own, &self.server);
            Ok(())
        }
    }

    /// The owner of the client end of the connection from `client` to `server`: from a
    /// reading begun after `accepted`, and a few fresher ones when its row is missing
    /// (the kernel's table can change while it is read).
    #[cfg(target_os = "linux")]
    async fn owner(
        &self,
        client: SocketAddr,
        server: SocketAddr,
        accepted: std::time::Instant,
    ) -> Result<u32, String> {
        let mut since = accepted;
        let mut last = String::new();
        for delay in std::iter::once(0).chain(RETRIES_MS) {
            if delay > 0 {
                tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
                since = std::time::Instant::now();
            }
            let (table, error) = self.reading_since(since).await;
            match table.owner(client, server) {
                Found::One(uid) => return Ok(uid),
                Found::Ambiguous => return Err(format!("several sockets claim {client}")),
                Found::None => {}
            }
            last = error.unwrap_or_else(|| {
                format!("no socket of {client} connected to {server} in /proc/net/tcp or tcp6")
            });
        }
        Err(last)
    }

    /// A reading of the tables begun at `since` or later: the last one, or a new one.
    #[cfg(target_os = "linux")]
    async fn reading_since(
        &self,
        since: std::time::Instant,
    ) -> (std::sync::Arc<Table>, Option<String>) {
        let mut last = self.tables.lock().await;
        if let Some(s) = last.as_ref()
            && s.began >= since
        {
            return (std::sync::Arc::clone(&s.table), s.error.clone());
        }
        let began = std::time::Instant::now();
        self.readings
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (table, error) = tokio::task::spawn_blocking(read_tables)
            .await
            .unwrap_or_else(|e| (Table::default(), Some(e.to_string())));
        let table = std::sync::Arc::new(table);
        *last = Some(Snapshot {
            began,
            table: std::sync::Arc::clone(&table),
            error: error.clone(),
        });
        (table, error)
    }
}

/// Delays before re-reading the tables when the connection's row is not (yet) there.
#[cfg(target_os = "linux")]
const RETRIES_MS: [u64; 3] = [10, 40, 100];

/// `/proc/net/tcp` and `/proc/net/tcp6` (an IPv4 client socket is in `tcp`, or in
/// `tcp6`, v4-mapped, when the client used an IPv6 socket), and what could not be read.
#[cfg(target_os = "linux")]
fn read_tables() -> (Table, Option<String>) {
    let mut table = Table::default();
    let mut errors = Vec::new();
    for path in ["/proc/net/tcp", "/proc/net/tcp6"] {
        // A /proc file has no size: read in large steps, not from 32 bytes up.
        let mut text = String::with_capacity(256 * 1024);
        let read = std::fs::File::open(path)
            .and_then(|mut f| std::io::Read::read_to_string(&mut f, &mut text));
        match read {
            Ok(_) => table.add(&text),
            Err(e) => errors.push(format!("{path}: {e}")),
        }
    }
    // Without IPv6 there is no tcp6: only both missing is an error.
    let error = (errors.len() == 2).then(|| errors.join(", "));
    (table, error)
}

/// The live client sockets of a socket table: for each local address, the remote
/// addresses it is connected to and the socket's owner.
#[derive(Debug, Default)]
pub(super) struct Table(std::collections::HashMap<SocketAddr, Vec<(SocketAddr, u32)>>);

impl Table {
    /// Adds the rows of the text of `/proc/net/tcp` or `/proc/net/tcp6`. Only live
    /// sockets count (a non-zero inode, a connected state); malformed lines are
    /// skipped.
    pub(super) fn add(&mut self, text: &str) {
        for row in text.lines().filter_map(parse_row) {
            if row.inode != 0 && is_connected(row.state) {
                self.0
                    .entry(row.local)
                    .or_default()
                    .push((row.remote, row.uid));
            }
        }
    }

    /// The owner of the socket at `client` connected to `server`. `server` with an
    /// unspecified address (a listener on all addresses) matches on its port.
    pub(super) fn owner(&self, client: SocketAddr, server: SocketAddr) -> Found {
        let server = unmap(server);
        let mut found = Found::None;
        let rows = self.0.get(&unmap(client)).map_or(&[][..], Vec::as_slice);
        for &(remote, uid) in rows {
            let to_server = remote.port() == server.port()
                && (server.ip().is_unspecified() || remote.ip() == server.ip());
            if !to_server {
                continue;
            }
            found = match found {
                Found::None => Found::One(uid),
                Found::One(u) if u == uid => Found::One(u),
                _ => Found::Ambiguous,
            };
        }
        found
    }
}

/// What a socket table says about one connection's client end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Found {
    /// One owner (possibly in several rows).
    One(u32),
    /// Live rows with different owners.
    Ambiguous,
    /// No live row.
    None,
}

/// The kernel's TCP states of a socket that is or was connected and still held by a
/// process: ESTABLISHED, FIN_WAIT1, FIN_WAIT2, CLOSE_WAIT, LAST_ACK, CLOSING (never
/// TIME_WAIT, SYN_RECV or LISTEN, whose rows carry no owner).
fn is_connected(state: u8) -> bool {
    matches!(state, 0x01 | 0x04 | 0x05 | 0x08 | 0x09 | 0x0B)
}

/// One row of a socket table, as far as the owner check needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Row {
    local: SocketAddr,
    remote: SocketAddr,
    state: u8,
    uid: u32,
    inode: u64,
}

/// `sl local remote st tx:rx tr:when retrnsmt uid timeout inode ...`; None for the
/// header, anything malformed, and rows of sockets no process holds or not connected.
fn parse_row(line: &str) -> Option<Row> {
    let mut fields = line.split_whitespace();
    let slot = fields.next()?.strip_suffix(':')?;
    if slot.is_empty() || !slot.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (local, remote, state) = (fields.next()?, fields.next()?, fields.next()?);
    let mut rest = fields.skip(3);
    let (uid, inode) = (rest.next()?, rest.nth(1)?);
    let (state, inode) = (hex_u8(state)?, inode.parse().ok()?);
    // The cheap fields first: most rows of a busy machine are in TIME_WAIT.
    if inode == 0 || !is_connected(state) {
        return None;
    }
    Some(Row {
        state,
        uid: uid.parse().ok()?,
        inode,
        local: parse_addr(local)?,
        remote: parse_addr(remote)?,
    })
}

fn hex_u8(text: &str) -> Option<u8> {
    (text.len() == 2 && text.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u8::from_str_radix(text, 16).ok())
        .flatten()
}

fn hex_u32(text: &str) -> Option<u32> {
    (text.len() == 8 && text.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u32::from_str_radix(text, 16).ok())
        .flatten()
}

/// `0100007F:1F90` (IPv4) or 32 hex digits `:PORT` (IPv6): the kernel prints each
/// 32-bit word of the address as a number in the machine's byte order, and the port as
/// a plain number. v4-mapped IPv6 addresses come back as IPv4.
fn parse_addr(text: &str) -> Option<SocketAddr> {
    let (ip, port) = text.split_once(':')?;
    if port.len() != 4 || !port.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let port = u16::from_str_radix(port, 16).ok()?;
    let ip = match ip.len() {
        8 => IpAddr::V4(Ipv4Addr::from(hex_u32(ip)?.to_ne_bytes())),
        32 => {
            let mut bytes = [0u8; 16];
            for (i, chunk) in bytes.chunks_exact_mut(4).enumerate() {
                let word = hex_u32(ip.get(i * 8..i * 8 + 8)?)?;
                chunk.copy_from_slice(&word.to_ne_bytes());
            }
            IpAddr::V6(Ipv6Addr::from(bytes))
        }
        _ => return None,
    };
    Some(unmap(SocketAddr::new(ip, port)))
}

/// `::ffff:a.b.c.d` as `a.b.c.d`.
fn unmap(addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => SocketAddr::new(IpAddr::V4(v4), addr.port()),
            None => addr,
        },
        IpAddr::V4(_) => addr,
    }
}

/// The effective uid in the text of `/proc/PID/status` (`Uid: real effective saved fs`).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(super) fn effective_uid(status: &str) -> Option<u32> {
    let line = status.lines().find_map(|l| l.strip_prefix("Uid:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

// The kernel prints addresses in the machine's byte order: these tables are x86's.
#[cfg(all(test, target_endian = "little"))]
mod tests {
    use super::*;

    fn find_owner(text: &str, client: SocketAddr, server: SocketAddr) -> Found {
        let mut table = Table::default();
        table.add(text);
        table.owner(client, server)
    }

    const HEADER4: &str = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode";
    const HEADER6: &str = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode";

    fn addr(s: &str) -> SocketAddr {
        s.parse().expect("address")
    }

    /// A server on 127.0.0.1:8391 (0x20C7) with two clients: port 40000 (0x9C40) of
    /// uid 1000 and port 40002 (0x9C42) of uid 65534, the server's ends of both, a
    /// TIME_WAIT row of an earlier connection from port 40004 (0x9C44), and the listener.
    fn tcp4() -> String {
        [
            HEADER4,
            "   0: 0100007F:20C7 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4900 1 0000000099c78cab 100 0 0 10 0",
            "   1: 0100007F:9C40 0100007F:20C7 01 00000000:00000000 00:00000000 00000000  1000        0 5101 1 0000000011111111 20 4 30 10 -1",
            "   2: 0100007F:20C7 0100007F:9C40 01 00000000:00000000 00:00000000 00000000  1000        0 5102 1 0000000022222222 20 4 30 10 -1",
            "   3: 0100007F:9C42 0100007F:20C7 01 00000000:00000000 00:00000000 00000000 65534        0 5201 1 0000000033333333 20 4 30 10 -1",
            "   4: 0100007F:20C7 0100007F:9C42 01 00000000:00000000 00:00000000 00000000  1000        0 5202 1 0000000044444444 20 4 30 10 -1",
            "   5: 0100007F:9C44 0100007F:20C7 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000055555555",
        ]
        .join("\n")
    }

    #[test]
    fn ipv4_rows_give_the_client_sockets_owner_not_the_servers() {
        let server = addr("127.0.0.1:8391");
        let t = tcp4();
        assert_eq!(
            find_owner(&t, addr("127.0.0.1:40000"), server),
            Found::One(1000)
        );
        // The other user's client: its own row, never the server's end of it (uid 1000).
        assert_eq!(
            find_owner(&t, addr("127.0.0.1:40002"), server),
            Found::One(65534)
        );
        // A listener on all addresses matches on the port.
        assert_eq!(
            find_owner(&t, addr("127.0.0.1:40002"), addr("0.0.0.0:8391")),
            Found::One(65534)
        );
        // Another server port: not this connection.
        assert_eq!(
            find_owner(&t, addr("127.0.0.1:40000"), addr("127.0.0.1:8392")),
            Found::None
        );
        // An unknown client port.
        assert_eq!(find_owner(&t, addr("127.0.0.1:1234"), server), Found::None);
    }

    #[test]
    fn time_wait_orphans_and_listeners_are_never_an_owner() {
        let server = addr("127.0.0.1:8391");
        // TIME_WAIT: uid 0, inode 0 (a root-run server must not take it for root).
        assert_eq!(
            find_owner(&tcp4(), addr("127.0.0.1:40004"), server),
            Found::None
        );
        // An orphan (closed by its process, still in FIN_WAIT1): inode 0.
        let orphan = format!(
            "{HEADER4}\n   0: 0100007F:9C46 0100007F:20C7 04 00000001:00000000 01:00000014 00000000     0        0 0 1 0000000066666666"
        );
        assert_eq!(
            find_owner(&orphan, addr("127.0.0.1:40006"), server),
            Found::None
        );
        // The same row still held (a client that shut its writing side): counts.
        let held = orphan.replace("     0        0 0 1", " 65534        0 7001 1");
        assert_eq!(
            find_owner(&held, addr("127.0.0.1:40006"), server),
            Found::One(65534)
        );
        // The listener's row never matches a client.
        assert_eq!(
            find_owner(&tcp4(), addr("127.0.0.1:8391"), addr("0.0.0.0:0")),
            Found::None
        );
    }

    #[test]
    fn ipv6_and_v4_mapped_rows() {
        // ::1 is 00000000 00000000 00000000 01000000 in host-order words.
        let t = [
            HEADER6,
            "   0: 00000000000000000000000001000000:20C7 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4260 1 00000000b047d4e8 100 0 0 10 0",
            "   1: 00000000000000000000000001000000:9C40 00000000000000000000000001000000:20C7 01 00000000:00000000 00:00000000 00000000 65534        0 6101 1 0000000077777777 20 4 30 10 -1",
            "   2: 00000000000000000000000001000000:20C7 00000000000000000000000001000000:9C40 01 00000000:00000000 00:00000000 00000000     0        0 6102 1 0000000088888888 20 4 30 10 -1",
            // An IPv6 socket connected to 127.0.0.1:8391 through ::ffff:127.0.0.1.
            "   3: 0000000000000000FFFF00000100007F:9C48 0000000000000000FFFF00000100007F:20C7 01 00000000:00000000 00:00000000 00000000  1000        0 6201 1 0000000099999999 20 4 30 10 -1",
        ]
        .join("\n");
        assert_eq!(
            find_owner(&t, addr("[::1]:40000"), addr("[::1]:8391")),
            Found::One(65534)
        );
        assert_eq!(
            find_owner(&t, addr("[::1]:40000"), addr("[::]:8391")),
            Found::One(65534)
        );
        // A v4-mapped row answers for the IPv4 peer the server sees, mapped or not.
        assert_eq!(
            find_owner(&t, addr("127.0.0.1:40008"), addr("127.0.0.1:8391")),
            Found::One(1000)
        );
        assert_eq!(
            find_owner(
                &t,
                addr("[::ffff:127.0.0.1]:40008"),
                addr("[::ffff:127.0.0.1]:8391")
            ),
            Found::One(1000)
        );
        assert_eq!(
            parse_addr("00000000000000000000000001000000:20C7"),
            Some(addr("[::1]:8391"))
        );
        assert_eq!(
            parse_addr("B80D0120000000000000000001000000:0050"),
            Some(addr("[2001:db8::1]:80"))
        );
    }

    #[test]
    fn malformed_lines_are_skipped_without_panicking() {
        let good = "   9: 0100007F:9C40 0100007F:20C7 01 00000000:00000000 00:00000000 00000000  1000        0 5101 1 x";
        let junk = [
            "",
            ":",
            "   0:",
            "   0: 0100007F",
            "   0: 0100007F:9C40 0100007F:20C7",
            "   0: 0100007F:9C40 0100007F:20C7 01 00000000:00000000 00:00000000 00000000  -5 0 1",
            "   0: 0100007F:9C40 0100007F:20C7 01 00000000:00000000 00:00000000 00000000  1000 0 x",
            "   0: 0100007G:9C40 0100007F:20C7 01 a b c 1000 0 1",
            "   0: +100007F:9C40 0100007F:20C7 01 a b c 1000 0 1",
            "   0: 0100007F:9C4 0100007F:20C7 01 a b c 1000 0 1",
            "   0: 0100007F:9C40 0100007F:20C7 1 a b c 1000 0 1",
            "   0: 0100007F:9C40 0100007F:20C7 01 a b c 99999999999 0 1",
            "   0: 00000000000000000000000001000000000:9C40 0100007F:20C7 01 a b c 1000 0 1",
            "   0: 0000000000000000000000000100000é:9C40 0100007F:20C7 01 a b c 1000 0 1",
            "x0: 0100007F:9C40 0100007F:20C7 01 a b c 1000 0 1",
            "\u{0}\u{1}\u{2}",
        ];
        for line in junk {
            assert_eq!(parse_row(line), None, "{line:?}");
        }
        let table = format!("{}\n{good}\n", junk.join("\n"));
        assert_eq!(
            find_owner(&table, addr("127.0.0.1:40000"), addr("127.0.0.1:8391")),
            Found::One(1000)
        );
        assert_eq!(
            find_owner("", addr("127.0.0.1:1"), addr("127.0.0.1:2")),
            Found::None
        );
    }

    #[test]
    fn two_live_owners_of_one_address_are_ambiguous() {
        let a = "   0: 0100007F:9C40 0100007F:20C7 01 00000000:00000000 00:00000000 00000000  1000        0 5101 1 x";
        let b = "   1: 0100007F:9C40 0100007F:20C7 01 00000000:00000000 00:00000000 00000000  1001        0 5102 1 x";
        let t = format!("{a}\n{b}");
        assert_eq!(
            find_owner(&t, addr("127.0.0.1:40000"), addr("127.0.0.1:8391")),
            Found::Ambiguous
        );
    }

    #[test]
    fn the_effective_uid_is_the_second_of_the_uid_line() {
        let status = "Name:\tmcp-elicit\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t1000\t1001\t1000\t1001\nGid:\t100\t100\t100\t100\n";
        assert_eq!(effective_uid(status), Some(1001));
        assert_eq!(effective_uid("Uid:\t0\n"), None);
        assert_eq!(effective_uid("Name: x\n"), None);
        assert_eq!(effective_uid("Uid:\tx\ty\n"), None);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_real_loopback_connection_belongs_to_this_process_user() {
        use std::time::Instant;
        let own = OwnUser::current();
        assert!(own.0.is_some(), "/proc/self/status gives the uid");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let server = listener.local_addr().expect("addr");
        let check = Checker::new(own, Some(server));
        let _client = tokio::net::TcpStream::connect(server)
            .await
            .expect("connect");
        let (_conn, peer) = listener.accept().await.expect("accept");
        assert_eq!(check.admit(peer, Instant::now()).await, Ok(()));
        // A peer address no socket has: refused, saying why.
        let nobody = "127.0.0.1:1".parse().expect("addr");
        let refused = check.admit(nobody, Instant::now()).await;
        assert!(
            refused
                .as_ref()
                .is_err_and(|m| m.contains("could not be told")),
            "{refused:?}"
        );
        // A different uid than ours: refused naming both.
        let other = Checker::new(OwnUser(own.0.map(|u| u.wrapping_add(1))), Some(server));
        let refused = other
            .admit(peer, Instant::now())
            .await
            .expect_err("another uid");
        assert!(refused.contains("only serves OS user"), "{refused}");
        // Without the listening address: refused.
        let blind = Checker::new(own, None);
        assert!(blind.admit(peer, Instant::now()).await.is_err());
    }

    #[cfg(target_os = "linux")]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_of_connections_shares_the_readings() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let server = listener.local_addr().expect("addr");
        let check = std::sync::Arc::new(Checker::new(OwnUser::current(), Some(server)));
        let mut held = Vec::new();
        let mut peers = Vec::new();
        for _ in 0..100 {
            held.push(
                tokio::net::TcpStream::connect(server)
                    .await
                    .expect("connect"),
            );
            let (conn, peer) = listener.accept().await.expect("accept");
            held.push(conn);
            peers.push((peer, std::time::Instant::now()));
        }
        let checks: Vec<_> = peers
            .into_iter()
            .map(|(peer, at)| {
                let check = std::sync::Arc::clone(&check);
                tokio::spawn(async move { check.admit(peer, at).await })
            })
            .collect();
        for c in checks {
            assert_eq!(c.await.expect("task"), Ok(()));
        }
        let readings = check.readings.load(std::sync::atomic::Ordering::Relaxed);
        assert!(
            readings <= 2,
            "100 connections read the tables {readings} times"
        );
    }
}
