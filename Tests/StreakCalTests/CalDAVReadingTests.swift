import CalendarDays
import Testing
@testable import StreakCal
@testable import StreakCalRemote

/// The pieces of the CalDAV client that need no server: the XML of WebDAV answers, the time range
/// a report asks for, batch output names.
@Suite("CalDAV reading")
struct CalDAVReadingTests {
    @Test("A multistatus is read with its namespaces, whatever the prefixes; references and CDATA are undone")
    func multistatus() throws {
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- a comment before the root -->
            <d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav">
              <d:response>
                <d:href>/alice/work%20log/a.ics</d:href>
                <d:propstat>
                  <d:prop>
                    <d:displayname>Work &amp; play &#x263A;</d:displayname>
                    <cal:calendar-data><![CDATA[BEGIN:VCALENDAR
            END:VCALENDAR
            ]]></cal:calendar-data>
                    <resourcetype xmlns="DAV:"><collection/><calendar xmlns="urn:ietf:params:xml:ns:caldav"/></resourcetype>
                  </d:prop>
                  <d:status>HTTP/1.1 200 OK</d:status>
                </d:propstat>
              </d:response>
            </d:multistatus>
            """
        let root = try DAVElement.parse(Array(text.utf8))
        #expect(root.isNamed("multistatus"))
        let prop = try #require(root.child("response")?.child("propstat")?.child("prop"))
        #expect(prop.child("displayname")?.text == "Work & play \u{263A}")
        #expect(prop.child("calendar-data", in: DAVElement.calDAV)?.text == "BEGIN:VCALENDAR\nEND:VCALENDAR\n")
        let properties = DAVProperties(elements: prop.children)
        #expect(properties.isCalendar)
        #expect(properties.displayName == "Work & play \u{263A}")
        #expect(properties.holdsEvents)
    }

    @Test("A document type declaration, an undeclared prefix, a mismatched end tag and deep nesting are errors")
    func refused() {
        let cases: [(String, String)] = [
            ("<!DOCTYPE x [<!ENTITY a \"aaaa\">]><x>&a;</x>", "document type declaration"),
            ("<p:x/>", "prefix p is not declared"),
            ("<a><b></a></b>", "</a> closes <b>"),
            ("<a>", "ends inside <a>"),
            ("<a>&bogus;</a>", "not one XML defines"),
            (String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100), "nested deeper than 64"),
        ]
        for (text, reason) in cases {
            #expect(throws: DAVElement.SyntaxError.self, "\(text)") { try DAVElement.parse(Array(text.utf8)) }
            do {
                _ = try DAVElement.parse(Array(text.utf8))
            } catch {
                #expect(error.reason.contains(reason), "\(text): \(error.reason)")
            }
        }
    }

    @Test("Elements StreakCal does not read are passed over unkept, their namespaces scoped; those it reads are kept")
    func unreadElements() throws {
        let text = """
            <D:multistatus xmlns:D="DAV:"><D:response><x:other xmlns:x="urn:x"><D:href>inside another</D:href></x:other>\
            <D:href xmlns:D="urn:not-dav">shadowed</D:href><D:href>/a.ics</D:href><D:propstat/></D:response></D:multistatus>
            """
        let root = try DAVElement.parse(Array(text.utf8))
        let response = try #require(root.child("response"))
        #expect(response.children.map(\.name) == ["href", "href", "propstat"])
        #expect(response.children.map(\.namespace) == ["urn:not-dav", "DAV:", "DAV:"])
        #expect(response.child("href")?.text == "/a.ics")
        // An undeclared prefix in a kept element is an error; a prefix declared inside an element is gone after it.
        #expect(throws: DAVElement.SyntaxError.self) { try DAVElement.parse(Array(#"<D:a xmlns:D="DAV:"><b xmlns:q="v"/><q:href/></D:a>"#.utf8)) }
    }

    @Test("Reading stops at the deadline it is given")
    func deadline() {
        let text = "<D:multistatus xmlns:D=\"DAV:\">" + String(repeating: "<a/>", count: 10_000) + "</D:multistatus>"
        #expect(throws: DAVElement.SyntaxError.self) { try DAVElement.parse(Array(text.utf8)) { true } }
        #expect(throws: Never.self) { try DAVElement.parse(Array(text.utf8)) { false } }
    }

    @Test("A collection that lists its components holds events only when VEVENT is among them")
    func supportedComponents() throws {
        let tasks = try DAVElement.parse(Array("""
            <C:supported-calendar-component-set xmlns:C="urn:ietf:params:xml:ns:caldav"><C:comp name="VTODO"/></C:supported-calendar-component-set>
            """.utf8))
        #expect(!DAVProperties(elements: [tasks]).holdsEvents)
        #expect(DAVProperties(elements: []).holdsEvents)
    }

    @Test("The time range is the window with two days' margin each side, in UTC; open ends stay open")
    func timeRange() throws {
        let range = try #require(CalDAVTimeRange(from: try Day(year: 2024, month: 3, day: 1), to: try Day(year: 2024, month: 3, day: 31)))
        #expect(range.attributes == " start=\"20240228T000000Z\" end=\"20240403T000000Z\"")
        let open = try #require(CalDAVTimeRange(from: nil, to: try Day(year: 2024, month: 1, day: 1)))
        #expect(open.attributes == " end=\"20240104T000000Z\"")
        #expect(CalDAVTimeRange(from: nil, to: nil) == nil)
    }

    @Test("A batch names an address's report by its host and path")
    func outputNames() {
        #expect(BatchInput.outputName(forAddress: "https://dav.example.com/alice/work/") == "dav.example.com__alice__work")
        #expect(BatchInput.outputName(forAddress: "https://example.com/feeds/team.ics?key=1") == "example.com__feeds__team")
        #expect(BatchInput.outputName(forAddress: "http://127.0.0.1:5232/") == "127.0.0.1:5232")
    }

    @Test("Addresses ending in / (or with no path) are asked as CalDAV first; files, queries and webcal are not")
    func mayBeCalDAV() throws {
        #expect(try CalendarAddress("https://dav.example.com/alice/").mayBeCalDAV)
        #expect(try CalendarAddress("https://dav.example.com").mayBeCalDAV)
        #expect(try !CalendarAddress("https://example.com/basic.ics").mayBeCalDAV)
        #expect(try !CalendarAddress("https://example.com/feed/?format=ical").mayBeCalDAV)
        #expect(try !CalendarAddress("webcal://example.com/alice/").mayBeCalDAV)
    }
}
