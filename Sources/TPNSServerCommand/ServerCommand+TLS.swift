import ArgumentParsing
import Glibc
import Posix
import TPNSEmulator

extension ServerCommand {
  /// `--tls-cert` and `--tls-key`: serve https with a certificate of one's own.
  struct TLSOptions: ParsableArguments {
    @Option(
      name: .customLong("tls-cert"),
      help: ArgumentHelp(
        "Serve https with this PEM certificate (the server's first, then its chain); "
          + "needs --tls-key.", valueName: "file"))
    var certificate: FilePath?
    @Option(
      name: .customLong("tls-key"),
      help: ArgumentHelp(
        "The certificate's private key (PEM, unencrypted); needs --tls-cert.",
        valueName: "file"))
    var key: FilePath?

    func validate() throws {
      if (certificate == nil) != (key == nil) {
        throw ValidationError(
          "--tls-cert and --tls-key go together: give both to serve https, or neither")
      }
    }

    /// The certificate and key read and checked; nil without them. A file that cannot be
    /// read, holds no PEM, or a key that is not the certificate's is a usage error (64)
    /// naming the file.
    func identity() throws -> TLSIdentity? {
      guard let certificate, let key else { return nil }
      do throws(TLSIdentityError) {
        return try TLSIdentity.load(certificateFile: certificate.string, keyFile: key.string)
      } catch {
        throw CommandFailure(
          error.description,
          hint: "--tls-cert takes a PEM certificate (-----BEGIN CERTIFICATE-----) and "
            + "--tls-key its unencrypted PEM private key.",
          exitCode: ExitCode(64))
      }
    }
  }

  /// `exec --tls`'s throwaway certificate: the key stays in memory; the certificate, which
  /// the command is given as its CA file, is written to a private temporary directory
  /// (0700) that ``remove()`` deletes.
  struct ThrowawayCertificate {
    let identity: TLSIdentity
    let directory: String
    /// The certificate's file (`TPNS_CACERT`).
    let path: String

    init() throws {
      do throws(TLSIdentityError) {
        identity = try TLSIdentity.selfSigned()
      } catch {
        throw CommandFailure(error.description)
      }
      var base = "/tmp"
      if let value = getenv("TMPDIR"), value.pointee != 0 { base = String(cString: value) }
      var template = Array("\(base)/tpns-server-exec.XXXXXX".utf8CString)
      guard let made = mkdtemp(&template) else {
        throw CommandFailure(
          "cannot make a temporary directory in '\(base)': \(String(cString: strerror(errno)))",
          hint: "Set TMPDIR to a writable directory.", exitCode: ExitCode(73))
      }
      directory = String(cString: made)
      path = directory + "/ca.pem"
      do {
        try TextFile.write(identity.certificate, to: path)
      } catch {
        rmdir(directory)
        throw CommandFailure(
          error.description, hint: "Set TMPDIR to a writable directory.",
          exitCode: ExitCode(73))
      }
    }

    func remove() {
      unlink(path)
      rmdir(directory)
    }
  }
}
