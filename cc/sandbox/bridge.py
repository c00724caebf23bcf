"""Inside the sandbox: forward 127.0.0.1:<port> to the proxy's unix socket, then run the
command. Run as `python -I -S bridge.py <port> <socket> -- <argv...>`; standard library
only. The forwarder is a forked child; it dies with the sandbox's pid namespace when the
command (which replaces this process) ends.
"""

import os
import socket
import sys
import threading


def _copy(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def _handle(client: socket.socket, path: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(path)
    except OSError:
        client.close()
        return
    back = threading.Thread(target=_copy, args=(upstream, client), daemon=True)
    back.start()
    _copy(client, upstream)
    back.join()
    client.close()
    upstream.close()


def main() -> None:
    port, path, sep, *command = sys.argv[1:]
    assert sep == "--" and command
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(port)))
    listener.listen(64)
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        while True:
            client, _ = listener.accept()
            threading.Thread(target=_handle, args=(client, path), daemon=True).start()
    listener.close()
    os.execvp(command[0], command)


if __name__ == "__main__":
    main()
