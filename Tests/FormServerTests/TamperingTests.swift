import Foundation
import HTTPTestClient
import Testing

@testable import FormServer

/// What a client may try, each asserted absent from the payload and unable to change a verdict.
@Suite struct TamperingTests {
    @Test func valueForADisabledRowIsIgnored() async throws {
        let response = try await withFormServer { port in
            try postJSON(port, "others", #"{"count":2,"reference":"FW-9999","group_name":"Hackers"}"#)
        }
        #expect(response.status == 200)
        #expect(response.text.contains(#""reference":"FW-0001""#))
        #expect(!response.text.contains("FW-9999"))
        #expect(response.text.contains(#""group_name":"Our group""#))  // disabled below five tickets: the server's
        #expect(!response.text.contains("Hackers"))
    }

    @Test func hiddenValueCannotRevealAFurtherBranch() async throws {
        // pet_names is hidden unless has_pets; a client posting it anyway changes nothing.
        let response = try await withFormServer { port in
            try postJSON(port, "pets", #"{"pet_names":"Rex","contact_email":"not an email","show_contact":false}"#)
        }
        #expect(response.status == 200)
        #expect(
            response.text
                == #"{"httpParameters":{"has_pets":false,"show_contact":false},"formValues":{"has_pets":false,"show_contact":false}}"#
        )
    }

    @Test func optionOutsideTheListIsAnError() async throws {
        let response = try await withFormServer { port in
            try postJSON(
                port, "event", #"{"title":"a","starts":"2026-01-01T10:00","ends":"2026-01-01T11:00","alert":"1y"}"#)
        }
        #expect(response.status == 422)
        #expect(
            response.text.contains(
                #""tag":"alert","message":"Alert must be one of the listed choices","code":"unknownOption""#))
        #expect(!response.text.contains("1y"))
    }

    @Test func multivaluedSectionOverItsCapIsRefused() async throws {
        let tags = (0..<11).map { "\"t\($0)\"" }.joined(separator: ",")
        let response = try await withFormServer { port in try postJSON(port, "multivalued", #"{"tags":["# + tags + "]}")
        }
        #expect(response.status == 422)
        #expect(response.text.contains(#""code":"tooManyItems""#))
    }

    @Test func duplicateFieldsAreRefused() async throws {
        let response = try await withFormServer { port in
            try BrowserSession(port: port, form: "event").post(
                "event", validEventPairs + [("guests", "9")], accept: "application/json")
        }
        #expect(response.status == 422)
        #expect(response.text.contains(#""tag":"guests","message":"Guests was sent more than once""#))
    }

    @Test func unknownFieldsAreIgnoredAndNeverEchoed() async throws {
        let response = try await withFormServer { port in
            try BrowserSession(port: port, form: "event").post(
                "event", validEventPairs + [("isAdmin", "true"), ("<script>", "x")], accept: "application/json")
        }
        #expect(response.status == 200)
        #expect(!response.text.contains("isAdmin"))
        #expect(!response.text.contains("script"))
    }

    @Test func forgedPageValuesForDisabledRowsAreNotShownBack() async throws {
        let page = try await withFormServer { port in
            try BrowserSession(port: port, form: "others").post("others", [("count", "99"), ("reference", "FORGED")])
        }
        #expect(page.status == 422)
        #expect(!page.text.contains("FORGED"))
        #expect(page.text.contains("FW-0001"))
    }
}

@Suite struct HostileRequestTests {
    @Test func bareEqualsCookieIsIgnoredNotACrash() async throws {
        let (page, again) = try await withFormServer { port in
            (
                try request(port, "/forms/event", headers: ["Cookie": "="]),
                try request(port, "/forms/event", headers: ["Cookie": "a=1; =; fw_csrf=AAAAAAAAAAAAAAAAAAAAAA"])
            )
        }
        #expect(page.status == 200)
        #expect(page.header("Set-Cookie")?.hasPrefix("fw_csrf=") == true)  // no usable nonce: a new one
        #expect(again.status == 200)
        #expect(again.header("Set-Cookie") == nil)  // the valid nonce after the bare `=` is kept
    }

    @Test func crossSitePostIsRefusedEvenWithAValidToken() async throws {
        let (cross, sameSite, sameOrigin) = try await withFormServer { port in
            let session = try BrowserSession(port: port, form: "event")
            return (
                try session.post("event", validEventPairs, extraHeaders: ["Sec-Fetch-Site": "cross-site"]),
                try session.post("event", validEventPairs, extraHeaders: ["Sec-Fetch-Site": "same-site"]),
                try session.post("event", validEventPairs, extraHeaders: ["Sec-Fetch-Site": "same-origin"])
            )
        }
        #expect(cross.status == 403)
        #expect(sameSite.status == 403)
        #expect(sameOrigin.status == 303)
    }

    @Test func multivaluedItemsOverTheCapAreNotEchoed() async throws {
        let page = try await withFormServer { port in
            try BrowserSession(port: port, form: "multivalued").post(
                "multivalued", (0..<1000).map { ("tags", "t\($0)") })
        }
        #expect(page.status == 422)
        // The items shown; the pristine one in the <template> is no part of the form.
        let shown = page.text.replacing(/<template[\s\S]*?<\/template>/, with: "")
        #expect(shown.components(separatedBy: "name=\"tags\"").count - 1 == 10)
        #expect(page.text.contains("Tags accepts at most 10 entries"))
    }
}
