//! The `format` checks, case by case against their RFCs (including the cases of the
//! JSON-Schema-Test-Suite's optional format tests for these four formats).

use mcp_elicit_core::schema::StringFormat;
use mcp_elicit_core::validate::formats::{check_format, is_date, is_date_time, is_email, is_uri};

fn expect(check: fn(&str) -> bool, name: &str, valid: &[&str], invalid: &[&str]) {
    let mut wrong = Vec::new();
    for s in valid {
        if !check(s) {
            wrong.push(format!("{name}: {s:?} should be valid"));
        }
    }
    for s in invalid {
        if check(s) {
            wrong.push(format!("{name}: {s:?} should be invalid"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn email_per_rfc_5321_mailbox() {
    let long_local = format!("{}@example.com", "a".repeat(64));
    let too_long_local = format!("{}@example.com", "a".repeat(65));
    let long_label = format!("a@{}.com", "b".repeat(63));
    let too_long_label = format!("a@{}.com", "b".repeat(64));
    let too_long_total = format!("a@{}.com", vec!["c".repeat(60); 5].join("."));
    expect(
        is_email,
        "email",
        &[
            "joe.bloggs@example.com",
            "te.s.t@example.com",
            "\"joe@bloggs\"@example.com",
            "name@example.com",
            "te~st@example.com",
            "~test@example.com",
            "test~@example.com",
            "a@b",
            "user+tag@sub.example.co.uk",
            "!#$%&'*+-/=?^_`{|}~@example.com",
            "\"joe bloggs\"@example.com",
            "\"joe..bloggs\"@example.com",
            "\"a@b\"@example.com",
            "\"quoted\\\"quote\"@example.com",
            "\"\"@example.com",
            "joe.bloggs@[127.0.0.1]",
            "joe.bloggs@[IPv6:::1]",
            "joe.bloggs@[ipv6:2001:db8::1]",
            "joe@[IPv6:::ffff:192.0.2.1]",
            "x@123.example",
            "x@xn--bcher-kva.example",
            "x@a-b.c",
            &long_local,
            &long_label,
        ],
        &[
            "",
            "2962",
            "@example.com",
            "joe@",
            ".test@example.com",
            "test.@example.com",
            "te..st@example.com",
            "joe bloggs@example.com",
            "joe.bloggs@[127.0.0.300]",
            "joe.bloggs@[127.0.0]",
            "joe.bloggs@[1.2.3.4.5]",
            "joe.bloggs@[IPv6:::12345]",
            "joe.bloggs@[IPv6:1.2.3.4]",
            "joe.bloggs@[::1]",
            "joe.bloggs@[tag:content]",
            "joe.bloggs@[127.0.0.1",
            "a@b@c.com",
            "a@-example.com",
            "a@example-.com",
            "a@example..com",
            "a@.example.com",
            "a@example.com.",
            "a@exa_mple.com",
            "joe.bloggs@invalid=domain.com",
            "\"unterminated@example.com",
            "\"bad\\\u{7f}\"@example.com",
            "\"tab\there\"@example.com",
            "\"x\"y@example.com",
            "josé@example.com",
            "jose@exámple.com",
            "a@b.com (comment)",
            "<a@b.com>",
            "Joe <a@b.com>",
            &too_long_local,
            &too_long_label,
            &too_long_total,
        ],
    );
}

#[test]
fn uri_per_rfc_3986_absolute() {
    expect(
        is_uri,
        "uri",
        &[
            "http://foo.bar/?baz=qux#quux",
            "http://foo.com/blah_(wikipedia)_blah#cite-1",
            "http://foo.bar/?q=Test%20URL-encoded%20stuff",
            "http://xn--nw2a.xn--j6w193g/",
            "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
            "http://223.255.255.254",
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
            "http://www.ietf.org/rfc/rfc2396.txt",
            "ldap://[2001:db8::7]/c=GB?objectClass?one",
            "mailto:John.Doe@example.com",
            "news:comp.infosystems.www.servers.unix",
            "tel:+1-816-555-1212",
            "telnet://192.0.2.16:80/",
            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
            "https://example.com:8443/path?query=1&x=%C3%A9",
            "file:///etc/hosts",
            "a:",
        ],
        &[
            "",
            "//foo.bar/?baz=qux#quux",
            "/abc",
            "abc",
            "\\\\WINDOWS\\fileshare",
            "http:// shouldfail.com",
            ":// should fail",
            "bar,baz:foo",
            "1http://example.com",
            "http://example.com/a b",
            "http://example.com/%zz",
            "http://example.com/%4",
            "http://exa mple.com",
            "http://[::1/",
            "http://example.com:80a/",
            "http://✪df.ws/123",
            "https://例え.jp",
            "http://example.com/\u{0}",
            "http://example.com/#a#b",
            "http://example.com/{x}",
        ],
    );
}

#[test]
fn date_per_rfc_3339_full_date() {
    expect(
        is_date,
        "date",
        &[
            "1963-06-19",
            "2020-01-31",
            "2021-02-28",
            "2020-02-29",
            "2000-02-29",
            "2020-03-31",
            "2020-04-30",
            "2020-12-31",
            "0000-01-01",
            "9999-12-31",
        ],
        &[
            "06/19/1963",
            "2013-350",
            "1998-1-20",
            "1998-01-1",
            "1998-13-01",
            "1998-00-01",
            "1998-01-00",
            "2020-01-32",
            "2021-02-29",
            "2023-02-29",
            "1900-02-29",
            "2100-02-29",
            "2020-02-30",
            "2020-03-32",
            "2020-04-31",
            "2020-05-32",
            "2020-06-31",
            "2020-07-32",
            "2020-08-32",
            "2020-09-31",
            "2020-10-32",
            "2020-11-31",
            "2020-12-32",
            "1963-06-1৪",
            "20230328",
            "2023-W01",
            "2023-W13-2",
            "2022W527",
            "2020-02-29T00:00:00Z",
            " 2020-02-29",
            "2020-02-29 ",
            "",
            "+2020-02-29",
            "-2020-02-29",
        ],
    );
}

#[test]
fn date_time_per_rfc_3339() {
    expect(
        is_date_time,
        "date-time",
        &[
            "1963-06-19T08:30:06.283185Z",
            "1963-06-19T08:30:06Z",
            "1937-01-01T12:00:27.87+00:20",
            "1990-12-31T15:59:50.123-08:00",
            "1998-12-31T23:59:60Z",
            "1998-12-31T15:59:60.123-08:00",
            "1963-06-19t08:30:06.283185z",
            "2020-02-29T00:00:00+23:59",
            "2020-01-01T00:00:00-00:00",
            "1998-12-31T23:59:60.999999999Z",
            "1999-01-01T00:29:60+00:30",
        ],
        &[
            "1998-12-31T23:59:61Z",
            "1998-12-31T23:58:60Z",
            "1998-12-31T22:59:60Z",
            "1998-12-31T23:59:60+01:00",
            "1990-02-31T15:59:59.123-08:00",
            "1990-12-31T15:59:59-24:00",
            "1990-12-31T15:59:59+00:60",
            "1963-06-19T08:30:06.28123+01:00Z",
            "06/19/1963 08:30:06 PST",
            "2013-350T01:01:01",
            "1963-06-19T08:30:06",
            "1963-06-19 08:30:06Z",
            "1963-06-19T08:30:06.Z",
            "1963-06-19T24:00:00Z",
            "1963-06-19T08:60:00Z",
            "1963-06-19T8:30:06Z",
            "1963-06-19T08:30Z",
            "1963-06-1৪T00:00:00Z",
            "1963-06-11T0৪:00:00Z",
            "1963-06-19T08:30:06+0100",
            "1963-06-19T08:30:06+01",
            "1963-06-19T08:30:06 Z",
            "2023-02-29T00:00:00Z",
            "",
        ],
    );
}

#[test]
fn check_format_dispatches_on_the_format() {
    assert!(check_format(StringFormat::Email, "a@b.c"));
    assert!(!check_format(StringFormat::Email, "2020-01-01"));
    assert!(check_format(StringFormat::Uri, "https://example.com"));
    assert!(!check_format(StringFormat::Uri, "a@b.c"));
    assert!(check_format(StringFormat::Date, "2020-01-01"));
    assert!(!check_format(StringFormat::Date, "2020-01-01T00:00:00Z"));
    assert!(check_format(StringFormat::DateTime, "2020-01-01T00:00:00Z"));
    assert!(!check_format(StringFormat::DateTime, "2020-01-01"));
}
