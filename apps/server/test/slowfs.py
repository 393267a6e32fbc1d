"""A slow disk for the tests: a FUSE file system that passes every call through to a folder,
but makes each write wait as a slow device would (a latency per write, plus its length at a given
bandwidth) and each fsync wait longer. Reads are not slowed: what is measured is how the server
behaves while its writes crawl.

    slowfs.py <backing dir> <mount point> <write latency s> <bytes per s> <fsync latency s>

It runs in the foreground until unmounted (fusermount -u <mount point>). Needs Debian's
python3-fusepy and /dev/fuse.
"""
import errno
import os
import sys
import time

from fusepy import FUSE, FuseOSError, Operations


class SlowFs(Operations):
    def __init__(self, root, latency, bandwidth, fsync_latency):
        self.root = root
        self.latency = latency
        self.bandwidth = bandwidth
        self.fsync_latency = fsync_latency

    def _path(self, path):
        return os.path.join(self.root, path.lstrip('/'))

    def __call__(self, op, path, *args):
        try:
            return super().__call__(op, path, *args)
        except OSError as error:
            raise FuseOSError(error.errno or errno.EIO)

    def access(self, path, mode):
        if not os.access(self._path(path), mode):
            raise FuseOSError(errno.EACCES)

    def getattr(self, path, fh=None):
        st = os.lstat(self._path(path))
        keys = ('st_atime', 'st_ctime', 'st_gid', 'st_mode', 'st_mtime', 'st_nlink', 'st_size', 'st_uid')
        return {key: getattr(st, key) for key in keys}

    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self._path(path))

    def statfs(self, path):
        st = os.statvfs(self._path(path))
        keys = ('f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail', 'f_ffree', 'f_files', 'f_flag', 'f_frsize', 'f_namemax')
        return {key: getattr(st, key) for key in keys}

    def chmod(self, path, mode):
        os.chmod(self._path(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self._path(path), uid, gid)

    def utimens(self, path, times=None):
        os.utime(self._path(path), times)

    def mkdir(self, path, mode):
        os.mkdir(self._path(path), mode)

    def rmdir(self, path):
        os.rmdir(self._path(path))

    def unlink(self, path):
        os.unlink(self._path(path))

    def rename(self, old, new):
        os.rename(self._path(old), self._path(new))

    def link(self, target, source):
        os.link(self._path(source), self._path(target))

    def symlink(self, target, source):
        os.symlink(source, self._path(target))

    def readlink(self, path):
        return os.readlink(self._path(path))

    def open(self, path, flags):
        return os.open(self._path(path), flags)

    def create(self, path, mode, fi=None):
        # Read and write: the kernel reads pages through this handle too (a shared mapping, SQLite's -shm).
        return os.open(self._path(path), os.O_RDWR | os.O_CREAT | os.O_TRUNC, mode)

    def read(self, path, size, offset, fh):
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        time.sleep(self.latency + len(data) / self.bandwidth)
        return os.pwrite(fh, data, offset)

    def truncate(self, path, length, fh=None):
        os.truncate(self._path(path), length)

    def flush(self, path, fh):
        return 0

    def fsync(self, path, datasync, fh):
        time.sleep(self.fsync_latency)
        os.fsync(fh)
        return 0

    def release(self, path, fh):
        os.close(fh)
        return 0


if __name__ == '__main__':
    root, mountpoint, latency, bandwidth, fsync_latency = sys.argv[1:6]
    FUSE(
        SlowFs(root, float(latency), float(bandwidth), float(fsync_latency)),
        mountpoint,
        foreground=True,
        nothreads=False,
        big_writes=True,
        max_write=131072,
    )
