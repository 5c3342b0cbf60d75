import Foundation

/// Reports in a batch's output folder that the run did not write (issue 49.4): left by an earlier
/// run over other inputs, such as the whole folder before a run on one of its subfolders.
///
/// A stale report is a regular file of the folder itself (not in a subfolder, not hidden, not a
/// link) whose extension is a report format's, that no input of the run is named for, and that
/// is not the summary. They are listed in the summary; `--clean` removes them, through the
/// folder's descriptor (`unlinkat`), never anything else.
enum BatchStaleReports {
    /// The extensions reports get, in every format.
    static let extensions: Set<String> = Set(ReportFormat.allCases.map(\.fileExtension))

    /// The stale reports' names, sorted by their bytes.
    static func find(in folder: OutputDirectory, keeping names: Set<String>) -> [String] {
        let copy = dup(folder.descriptor)
        guard copy >= 0, let directory = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(directory) }
        rewinddir(directory)
        var stale: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: field.pointee)) { String(cString: $0) }
            }
            guard !name.hasPrefix("."), name != BatchReport.summaryFileName, !names.contains(name),
                  let dot = name.lastIndex(of: "."), extensions.contains(String(name[name.index(after: dot)...]).lowercased())
            else { continue }
            var information = stat()
            guard fstatat(folder.descriptor, name, &information, AT_SYMLINK_NOFOLLOW) == 0, information.st_mode & S_IFMT == S_IFREG else { continue }
            stale.append(name)
        }
        return stale.sorted(by: precedesByBytes)
    }

    /// Removes `names` from the folder; whether every one went.
    static func remove(_ names: [String], from folder: OutputDirectory) -> Bool {
        var removedAll = true
        for name in names where unlinkat(folder.descriptor, name, 0) != 0 { removedAll = false }
        return removedAll
    }
}
