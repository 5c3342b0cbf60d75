// The diagnostics this module's API gives (`Diagnostic`), for clients that import ICalendar alone.
@_exported public import CalendarDiagnostics
