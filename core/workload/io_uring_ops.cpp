// SPDX-License-Identifier: Apache-2.0
#include "workload/io_uring_ops.h"

namespace wb {

IoIssueDecision io_uring_issue(IoUringOp op, const IoFileCaps& caps)
{
    switch (op) {
    case IoUringOp::Nop:
        return {IoIssue::Inline, "io_nop(): completes at once"};
    case IoUringOp::Readv:
    case IoUringOp::Read:
        if (!caps.nowait)
            return {IoIssue::IoWq, "io_read(): no nowait support on the file, -EAGAIN under IO_URING_F_NONBLOCK"};
        return {IoIssue::Inline, "io_read(): IOCB_NOWAIT read served from the page cache"};
    case IoUringOp::Writev:
    case IoUringOp::Write:
        if (!caps.nowait)
            return {IoIssue::IoWq, "io_write(): no nowait support on the file, -EAGAIN under IO_URING_F_NONBLOCK"};
        if (!caps.buffer_wasync)
            return {IoIssue::IoWq, "io_write(): buffered write without FOP_BUFFER_WASYNC, -EAGAIN"};
        return {IoIssue::Inline, "io_write(): IOCB_NOWAIT buffered write into the page cache"};
    case IoUringOp::Fsync:
        return {IoIssue::IoWq, "io_fsync(): always needs a blocking context, -EAGAIN under IO_URING_F_NONBLOCK"};
    case IoUringOp::SyncFileRange:
        return {IoIssue::IoWq, "io_sync_file_range(): always needs a blocking context, -EAGAIN"};
    case IoUringOp::Fallocate:
        return {IoIssue::IoWq, "io_fallocate(): always needs a blocking context, -EAGAIN"};
    case IoUringOp::Fadvise:
        // stress-ng asks POSIX_FADV_NORMAL (stress_io_uring_fadvise_setup).
        return {IoIssue::Inline, "io_fadvise_prep(): NORMAL, RANDOM and SEQUENTIAL are not forced async"};
    case IoUringOp::Close:
        if (caps.close_flush)
            return {IoIssue::IoWq, "io_close(): the file has ->flush, -EAGAIN under IO_URING_F_NONBLOCK"};
        return {IoIssue::Inline, "io_close(): no ->flush, closed inline"};
    case IoUringOp::Madvise:
        return {IoIssue::IoWq, "io_madvise_prep(): REQ_F_FORCE_ASYNC"};
    case IoUringOp::Statx:
        return {IoIssue::IoWq, "io_statx_prep(): REQ_F_FORCE_ASYNC"};
    case IoUringOp::Setxattr:
        return {IoIssue::IoWq, "__io_setxattr_prep(): REQ_F_FORCE_ASYNC"};
    case IoUringOp::Getxattr:
        return {IoIssue::IoWq, "__io_getxattr_prep(): REQ_F_FORCE_ASYNC"};
    case IoUringOp::Ftruncate:
        return {IoIssue::IoWq, "io_ftruncate_prep(): REQ_F_FORCE_ASYNC"};
    }
    return {IoIssue::IoWq, "unknown opcode"};
}

std::string_view io_uring_op_name(IoUringOp op)
{
    switch (op) {
    case IoUringOp::Readv: return "IORING_OP_READV";
    case IoUringOp::Writev: return "IORING_OP_WRITEV";
    case IoUringOp::Read: return "IORING_OP_READ";
    case IoUringOp::Write: return "IORING_OP_WRITE";
    case IoUringOp::Fsync: return "IORING_OP_FSYNC";
    case IoUringOp::Nop: return "IORING_OP_NOP";
    case IoUringOp::Fallocate: return "IORING_OP_FALLOCATE";
    case IoUringOp::Fadvise: return "IORING_OP_FADVISE";
    case IoUringOp::Close: return "IORING_OP_CLOSE";
    case IoUringOp::Madvise: return "IORING_OP_MADVISE";
    case IoUringOp::Statx: return "IORING_OP_STATX";
    case IoUringOp::SyncFileRange: return "IORING_OP_SYNC_FILE_RANGE";
    case IoUringOp::Setxattr: return "IORING_OP_SETXATTR";
    case IoUringOp::Getxattr: return "IORING_OP_GETXATTR";
    case IoUringOp::Ftruncate: return "IORING_OP_FTRUNCATE";
    }
    return "unknown";
}

}  // namespace wb
