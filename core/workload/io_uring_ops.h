// SPDX-License-Identifier: Apache-2.0
//
// The io_uring opcodes stress-ng's io-uring stressor submits, in its order
// (stress-io-uring.c, stress_io_uring_setups[]), and where Linux runs each
// one: inline in the submitter's io_uring_enter(), or handed to an io-wq
// worker thread. io_issue_sqe() first tries a request with
// IO_URING_F_NONBLOCK; a request whose prep set REQ_F_FORCE_ASYNC skips that
// attempt, and one whose issue returns -EAGAIN is punted (io_queue_async ->
// io_queue_iowq). Which requests do either depends on the opcode and on
// what the file supports, so the decision takes the file's capabilities.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace wb {

enum class IoUringOp : std::uint8_t {
    Readv,
    Writev,
    Read,
    Write,
    Fsync,
    Nop,
    Fallocate,
    Fadvise,
    Close,
    Madvise,
    Statx,
    SyncFileRange,
    Setxattr,
    Getxattr,
    Ftruncate,
};

// One round of stress_io_uring_child()'s inner loop: every opcode once, in
// the table's order (io-uring-rand off, the default), each submitted alone.
inline constexpr std::array<IoUringOp, 15> kStressIoUringRound = {
    IoUringOp::Readv,     IoUringOp::Writev,  IoUringOp::Read,          IoUringOp::Write,
    IoUringOp::Fsync,     IoUringOp::Nop,     IoUringOp::Fallocate,     IoUringOp::Fadvise,
    IoUringOp::Close,     IoUringOp::Madvise, IoUringOp::Statx,         IoUringOp::SyncFileRange,
    IoUringOp::Setxattr,  IoUringOp::Getxattr, IoUringOp::Ftruncate,
};

// What the file and the descriptors the requests name support.
struct IoFileCaps {
    // FMODE_NOWAIT or O_NONBLOCK on the file (io_file_get_flags():
    // REQ_F_SUPPORT_NOWAIT). tmpfs: no (shmem_file_open() sets only
    // FMODE_CAN_ODIRECT); ext4, xfs, btrfs: yes.
    bool nowait = false;
    // FOP_BUFFER_WASYNC: buffered writes may be tried with IOCB_NOWAIT
    // (io_write()). xfs, btrfs: yes; ext4, tmpfs: no.
    bool buffer_wasync = false;
    // The file the CLOSE request closes (stress-ng's dup(stdin)) has a
    // ->flush method, which io_close() punts under IO_URING_F_NONBLOCK.
    // /dev/null, a pipe or a tty: no.
    bool close_flush = false;
    // ->fallocate in the file's file_operations (vfs_fallocate(): else
    // -EOPNOTSUPP). ramfs: no.
    bool fallocate = true;
    // user.* extended attributes (tmpfs since 6.6; ramfs: none, -EOPNOTSUPP).
    bool user_xattr = true;
};

// LKP runs the stressor in its rootfs, an initramfs unpacked from the job's
// .cgz (the job names no disk): tmpfs when the kernel command line names no
// root=, ramfs otherwise (init/do_mounts.c, rootfs_init_fs_context()).
inline constexpr IoFileCaps kTmpfsFile{false, false, false, true, true};
inline constexpr IoFileCaps kRamfsFile{false, false, false, false, false};

// The request fails with -EOPNOTSUPP on this file: stress-ng marks the
// opcode unsupported (stress_io_uring_complete()) and stops submitting it.
constexpr bool io_uring_op_unsupported(IoUringOp op, const IoFileCaps& caps)
{
    switch (op) {
    case IoUringOp::Fallocate:
        return !caps.fallocate;
    case IoUringOp::Setxattr:
    case IoUringOp::Getxattr:
        return !caps.user_xattr;
    default:
        return false;
    }
}

enum class IoIssue : std::uint8_t {
    Inline,  // completes inside io_uring_enter() in the submitter
    IoWq,    // handed to an io-wq worker (REQ_F_FORCE_ASYNC or -EAGAIN under NONBLOCK)
};

struct IoIssueDecision {
    IoIssue issue;
    std::string_view why;  // the kernel function and condition that decide
};

// Where io_issue_sqe() leaves `op` on a file with `caps`.
IoIssueDecision io_uring_issue(IoUringOp op, const IoFileCaps& caps);

std::string_view io_uring_op_name(IoUringOp op);  // "IORING_OP_READV"

// io_wq_worker(): after a sleep of WORKER_IDLE_TIMEOUT with no work, a
// worker exits unless it is its accounting class's last one (or its CPU
// left the io-wq's mask).
constexpr bool io_worker_exits_on_timeout(int nr_workers, bool on_allowed_cpu)
{
    return !on_allowed_cpu || nr_workers > 1;
}

}  // namespace wb
