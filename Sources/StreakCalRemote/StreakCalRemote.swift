// Calendars at addresses: `import StreakCalRemote` adds subscriptions and CalDAV to the toolkit.
@_exported import StreakCal
