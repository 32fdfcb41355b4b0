import Glibc

/// Whether `fd` becomes readable within `milliseconds`: poll(2), taken again when a signal to the
/// test process interrupts it (EINTR), so that a child of another test ending meanwhile never reads
/// as "nothing came".
func pollReadable(_ fd: Int32, waitingAtMost milliseconds: Int32) -> Bool {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
        let ready = poll(&poller, 1, milliseconds)
        if ready < 0, errno == EINTR { continue }
        return ready == 1
    }
}
