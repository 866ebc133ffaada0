// Load/store unit: a warp's loads, stores and atomics on global memory over the line-wide
// memory port (docs/blocks/mem_port.md) and on the on-chip shared memory it owns
// (docs/blocks/sm.md, "The load/store unit"). This file joins its parts:
//
//   simt_sm_lsu_ctrl      the sequencing: an instruction's steps, its requests, the
//                         register-file reads of the next cycle
//   simt_sm_lsu_addr      each lane's address; every executing thread's address checked,
//                         a group a cycle, before any access (a faulting instruction has no
//                         effect; the fault names the first thread in ISA order)
//   simt_sm_lsu_shared    banked shared memory, conflicts serialised
//   simt_sm_lsu_coalesce  a global access's next request: one per distinct line
//   simt_sm_lsu_sender    the queue of done instructions' copies from which their requests
//                         go out; the next request's instruction and data; a v4 store's
//                         gathered elements
//   simt_sm_lsu_inflight  global instructions in flight, the register scoreboard
//   simt_sm_lsu_response  the memory's responses into the register file (the v4 drain,
//                         simt_sm_lsu_drain, at 32 lanes), the first error response
//
// Interface to the core: start_i hands in the instruction in EXEC with its executing lanes;
// its operands come from the register file's three read ports (opa: base addresses, opb:
// store data, an atomic's operand, cas's compare value or a v4 store's element, opc: cas's
// swap value), one group of NumLanes threads at a time: DE read the group of the lowest
// executing thread, and the unit has the register file read the group its lanes need in the
// next cycle (rf_re*_o, rf_grp_o), so every group's operands are on the ports when its turn
// comes (asserted). It ends with done_o, or fault_o with the lane and address (the sequencer
// stops the core then).
// A global instruction is done once its requests are sent, or (Detach) once its addresses
// passed the check and it holds a slot (simt_sm_lsu_ctrl); its responses come back while the
// core goes on. A response with an error is a fault reported once nothing is in flight
// (fault_o while idle, with the instruction's warp and PC).
// Atomics are one request per lane, in ascending lane order, performed by the memory (which
// performs requests in the order it accepts them).
//
// NumLanes (issue #26): the address check, the coalescer and the shared-memory crossbar
// serve one group of NumLanes threads at a time (the pass sequencer's groups, ascending,
// only those with a thread to serve); every group is checked before anything of the
// instruction reaches memory. The register file's ports hold the group of whichever of them
// is working (they never work in the same cycle).
module simt_sm_lsu #(
  parameter int  NumLanes    = 32,  // lanes of the coalescer and the shared crossbar
  parameter int  NumWarps    = 8,
  parameter int  NumCtas     = 4,
  parameter int  SharedWords = 1024,
  parameter int  SharedBanks = 32,
  parameter int  LineBytes   = 64,
  parameter int  IdW         = 4,
  parameter int  Slots       = 8,   // global instructions in flight
  parameter bit  Detach      = 1'b1,  // global accesses of one group are done in CHECK (above)
  parameter int  SendDepth   = 4,     // ... the sender's queue of them (simt_sm_lsu_sender)
  localparam int NumPasses   = 32 / NumLanes,
  localparam int PassW       = (NumPasses > 1) ? $clog2(NumPasses) : 1,
  localparam int WarpW       = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW        = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int ShAW        = $clog2(NumCtas * SharedWords),
  localparam int RfAW        = WarpW + 5,
  localparam int NumIds      = 1 << IdW,
  localparam int OffW        = $clog2(LineBytes),
  localparam int BankW       = $clog2(SharedBanks),
  localparam int LaneW       = $clog2(NumLanes),
  // The v4 drain (simt_sm_lsu_drain) at 32 lanes with the sender: a v4 load's lines written
  // side by side, up to one a cycle, where each would hold the write port four cycles.
  localparam bit Drain       = Detach && NumLanes == 32,
  localparam int AddrW       = 22
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [31:0]            cfg_global_bytes_i,
  input  logic [31:0]            cfg_shared_bytes_i,

  // The instruction.
  input  logic                   start_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::inst_t     inst_i,  // the guard was applied in DE
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]            exec_i,
  input  logic [WarpW-1:0]       warp_i,
  input  logic [AddrW-1:0]       pc_i,
  input  logic [CtaW-1:0]        cta_i,       // the warp's resident CTA (its shared memory)
  input  logic [31:0]            imm_b_i,  // inst_i.imm_b, a copy per thread (decode)
  input  logic [simt_sm_pkg::ImmCopies*32-1:0] imm_i,  // inst_i.imm, a copy per thread group
  output logic                   busy_o,         // takes no start_i (the sender may work on)
  output logic                   done_o,
  output logic                   done_fast_o,    // done_o from registered state alone
  output simt_sm_pkg::fault_t    fault_o,
  output logic [WarpW-1:0]       fault_warp_o,   // a late error's instruction (else warp_i)
  output logic [AddrW-1:0]       fault_pc_o,
  output logic                   err_pending_o,  // an error response came: stop issuing
  output logic                   quiet_o,        // idle, nothing in flight
  output logic                   evt_stall_o,    // waiting for the memory
  output logic                   evt_conflict_o, // a shared-memory bank conflict
  output logic                   evt_id_wait_o,  // a request waits for its id to come back
  output logic                   evt_slot_wait_o,// a global instruction waits for a slot
  output logic                   evt_sender_wait_o,// ... CHECK waits for the sender

  // Scoreboard (simt_sm_lsu_inflight).
  input  logic [WarpW-1:0]       de_w_i,
  input  logic [31:0]            de_regs_i,
  input  logic                   de_membar_i,
  output logic                   de_hazard_o,
  output logic [Slots-1:0]       de_hazard_slots_o,  // ... the slots DE's instruction waits for
  output logic [Slots-1:0]       freed_slots_o,  // slots that free this cycle
  output logic [NumWarps-1:0]    warp_busy_o,    // warps whose registers a slot still needs
  input  logic [IdW-1:0]         look_id_i,
  output logic [WarpW-1:0]       look_warp_o,

  // Register file: the reads (ports a and c: the instruction's ra and rc, port b: rf_rb_o)
  // of a group for the next cycle, the ports' data (the group rd_grp_i), the write.
  output logic                   rf_re_o,
  output logic                   rf_re_b_o,
  output logic                   rf_re_c_o,
  output logic [4:0]             rf_rb_o,
  output logic [1:0]             rf_elem_o,   // rf_rb_o is the instruction's rb + this
  output logic [PassW-1:0]       rf_grp_o,
  input  logic [NumLanes*32-1:0] opa_i,
  input  logic [NumLanes*32-1:0] opb_i,
  input  logic [NumLanes*32-1:0] opc_i,
  input  logic [PassW-1:0]       rd_grp_i,
  output logic [31:0]            rf_we_o,
  output logic                   rf_wr_o,        // ... some (rf_we_o != 0, from early terms)
  output logic [RfAW-1:0]        rf_waddr_o,
  output logic                   rf_split_o,     // ... each lane at its own (the v4 drain)
  output logic [NumLanes*RfAW-1:0] rf_waddr_lane_o,
  output logic [NumLanes*32-1:0] rf_wdata_o,    // on the lanes
  output logic [RfAW-1:0]        rf_uaddr_o,     // a response's {warp, rd}: are its four
  input  logic [3:0]             rf_used_i,      // ... entries written since launch
  output logic                   rf_late_o,      // the write is a global response's
  input  logic                   rf_busy_i,      // another unit writes the register file
  output logic                   wb_wait_o,      // a response waits for the write port
  output logic                   sh_we_o,        // a shared load writes (the port is taken)

  // Shared memory clear at CTA launch.
  input  logic                   sh_clr_i,
  input  logic [ShAW-1:0]        sh_clr_addr_i,

  // Global memory (docs/blocks/mem_port.md).
  output logic                   mem_req_valid_o,
  input  logic                   mem_req_ready_i,
  output logic [IdW-1:0]         mem_req_id_o,
  output logic                   mem_req_we_o,
  output logic [3:0]             mem_req_amo_o,
  output logic [31:0]            mem_req_addr_o,
  output logic [LineBytes-1:0]   mem_req_be_o,
  output logic [LineBytes*8-1:0] mem_req_wdata_o,
  output logic [31:0]            mem_req_cmp_o,
  input  logic                   mem_rsp_valid_i,
  output logic                   mem_rsp_ready_o,
  input  logic [IdW-1:0]         mem_rsp_id_i,
  input  logic                   mem_rsp_err_i,
  input  logic [LineBytes*8-1:0] mem_rsp_rdata_i
);

  simt_sm_pkg::lsu_state_e state_q;            // (simt_sm_lsu_ctrl's)
  logic [31:0]             pend_q;             // lanes still to request in this pass
  logic [1:0]              elem_q;             // a v4 store's element on port b (GATHER)
  logic                    early_q;            // ... gathered while the sender works, no slot yet
  logic [IdW-1:0]          next_id_q;
  logic                    err_q;              // a response came back with an error
  simt_sm_pkg::fault_t     err_fault_q;        // ... the first (simt_sm_lsu_response)
  logic [WarpW-1:0]        err_warp_q;
  logic [AddrW-1:0]        err_pc_q;
  // The sender (Detach, simt_sm_lsu_sender): instructions already done put out their requests
  // from the sender's copies, in order; the sequencing hands one over (snd_take) and says when
  // the oldest's last request is sent (snd_last).
  logic                    snd_q, snd_d, snd_room, snd_more;
  logic [31:0]             snd_more_exec;

  /* verilator lint_off UNUSEDSIGNAL */
  simt_sm_pkg::cls_t cls;
  /* verilator lint_on UNUSEDSIGNAL */
  assign cls = simt_sm_pkg::classify(inst_i.op);

  // ---- The group on the lanes ---------------------------------------------------------------
  // One group of NumLanes threads is on the lanes at a time (lane l: thread first + l): the
  // address check's, group by group before any request; then the shared-memory unit's while
  // it works (SHARED), else the coalescer's (the group of the lowest thread still to
  // request). Their bases and operands are the register file's read ports, which hold the
  // group read the cycle before (below: the group of the next cycle is read).
  logic [4:0] co_first, sh_first, sh_first_next, chk_first, first;
  logic       sh_pend_next;
  logic       checking;  // the lanes check a group of the instruction's addresses this cycle
  logic [31:0] chk_left_d, chk_left_q;  // the threads whose groups are still to be checked
  // (co_first: the control's group_first of pend_q, pend_first_o.)
  assign first     = (state_q == simt_sm_pkg::LsShared) ? sh_first :
                     checking ? chk_first : co_first;
  // Each lane's address, and the check of every executing thread's address, a group a cycle
  // before any request (simt_sm_lsu_addr).
  logic [NumLanes*32-1:0] g_addr, g_held, g_b;  // (g_held: the addresses kept by the check)
  simt_sm_pkg::fault_t    chk_fault_q;
  logic [32*(OffW-2)-1:0] words;  // each thread's word in its line
  logic [32*BankW-1:0]    banks;  // ... its shared-memory bank
  // The address check's limit (the memory's bytes less the access's) for each memory and
  // width, from the configuration alone, picked by the instruction's class: the class, a
  // size's mux and a subtraction no longer precede the lanes' comparisons.
  logic [32:0] lim_sh4, lim_sh16, lim_gl4, lim_gl16, chk_limit;
  assign lim_sh4   = {1'b0, cfg_shared_bytes_i} - 33'd4;
  assign lim_sh16  = {1'b0, cfg_shared_bytes_i} - 33'd16;
  assign lim_gl4   = {1'b0, cfg_global_bytes_i} - 33'd4;
  assign lim_gl16  = {1'b0, cfg_global_bytes_i} - 33'd16;
  assign chk_limit = cls.shared ? (cls.v4 ? lim_sh16 : lim_sh4) : (cls.v4 ? lim_gl16 : lim_gl4);

  simt_sm_lsu_addr #(
    .NumLanes    (NumLanes),
    .LineBytes   (LineBytes),
    .SharedBanks (SharedBanks)
  ) u_addr (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .idle_i       (state_q == simt_sm_pkg::LsIdle),
    .check_i      (state_q == simt_sm_pkg::LsCheck),
    .start_i      (start_i),
    .exec_i       (exec_i),
    .opa_i        (opa_i),
    .imm_i        (imm_i),
    .imm_b_i      (imm_b_i),
    .imm_one_i    (inst_i.imm),
    .abs_i        (inst_i.imm_b),
    .shared_i     (cls.shared),
    .v4_i         (cls.v4),
    .size_i       (cls.shared ? cfg_shared_bytes_i : cfg_global_bytes_i),
    .limit_i      (chk_limit),
    .addr_o       (g_addr),
    .rd_grp_i     (rd_grp_i),
    .held_o       (g_held),
    .checking_o   (checking),
    .first_o      (chk_first),
    .left_o       (chk_left_q),
    .left_next_o  (chk_left_d),
    .fault_o      (chk_fault_q),
    .words_o      (words),
    .banks_o      (banks)
  );
  assign g_b    = opb_i;  // store data, an atomic's operand, cas's compare value; a v4
                         // store's element (port b reads its register: GATHER)
  // rc (cas: the swap value) matters at the atomic's one thread only, the leader: for shared
  // memory one NumLanes:1 select of port c (a global cas keeps port c in the sender).
  logic [4:0]  leader, sh_leader;
  // The atomic operation (the ISA's sub field plus one; cas).
  // Latched as the instruction starts (its fields stay in EXEC until it is done, asserted
  // below), so that the coalescer's one lane per request for atomics starts from a register,
  // not from EXEC's opcode through the class decode (issue #26: a routed critical path of
  // the board core ran that way into the coalescer's rest_o).
  logic [3:0] amo, amo_now, amo_d, amo_q;
  assign amo_now = !cls.atom ? simt_mem_pkg::AmoNone
                 : cls.cas   ? simt_mem_pkg::AmoCas
                             : 4'(inst_i.sub[2:0]) + 4'd1;
  assign amo_d   = start_i ? amo_now : amo_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) amo_q <= '0;
    else         amo_q <= amo_d;
  end
  assign amo = amo_q;

  // ---- Shared memory ------------------------------------------------------------------------
  logic        sh_start, sh_done;
  /* verilator lint_off UNUSEDSIGNAL */
  logic        sh_busy;  // checked
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0] sh_rf_we;
  logic        sh_rf_wr;
  logic [NumLanes*32-1:0] sh_rf_wdata;  // on the lanes
  simt_sm_lsu_shared #(
    .NumLanes    (NumLanes),
    .NumCtas     (NumCtas),
    .SharedWords (SharedWords),
    .Banks       (SharedBanks)
  ) u_shared (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .start_i    (sh_start),
    .exec_i     (exec_i),
    .cta_i      (cta_i),
    .first_o    (sh_first),
    .first_next_o (sh_first_next),
    .pend_next_o  (sh_pend_next),
    .leader_o   (sh_leader),
    .addr_i     (g_held),
    .data_i     (g_b),
    .swap_i     (opc_i[(32'(sh_leader) % NumLanes)*32 +: 32]),
    .wb_bank_i  (banks),
    .store_i    (cls.store),
    .atom_i     (cls.atom),
    .amo_i      (amo),
    .busy_o     (sh_busy),
    .done_o     (sh_done),
    .conflict_o (evt_conflict_o),
    .rf_we_o    (sh_rf_we),
    .rf_wr_o    (sh_rf_wr),
    .rf_wdata_o (sh_rf_wdata),
    .clr_i      (sh_clr_i),
    .clr_addr_i (sh_clr_addr_i)
  );

  // ---- Global memory: the next request ------------------------------------------------------
  // Its instruction and data (simt_sm_lsu_sender's outputs, sd_*): the sender's oldest while
  // it works (the core has moved on: the ports, inst_i and exec_i are another instruction's),
  // else the one in the unit with a v4 store's gathered elements.
  logic                   sd_v4, sd_store, sd_atom;
  logic [3:0]             sd_amo;
  logic [NumLanes*32-1:0] sd_addr, sd_data, sd_b;
  logic [NumLanes*96-1:0] sd_elems;
  assign sd_atom = sd_amo != simt_mem_pkg::AmoNone;
  logic [LaneW-1:0]       leader_lane;
  logic [31:0]            group;
  logic                   group_rest;
  logic [31:0]            line_addr;
  logic [LineBytes-1:0]   line_be;
  logic [LineBytes*8-1:0] line_wdata;
  simt_sm_lsu_coalesce #(
    .NumLanes  (NumLanes),
    .LineBytes (LineBytes)
  ) u_coalesce (
    .pend_i      (pend_q),
    .first_i     (co_first),
    .addr_i      (sd_addr),
    .v4_i        (sd_v4),
    .single_i    (sd_atom),
    .data_i      (sd_data),
    .elems_i     (sd_elems),
    .leader_o    (leader),
    .lane_o      (leader_lane),
    .group_o     (group),
    .rest_o      (group_rest),
    .line_addr_o (line_addr),
    .be_o        (line_be),
    .wdata_o     (line_wdata)
  );

  // ---- Global memory: the in-flight table and the scoreboard --------------------------------
  // (The v4 drain's: a line taken, an id given back; below.)
  logic [NumIds-1:0]      out;
  logic                   rsp_ret;
  logic [IdW-1:0]         rsp_ret_id;
  logic [NumIds-1:0]      rsp_ret_ids;
  logic                   slot_free, alloc, sent, req_fire, rsp_fire;
  logic [31:0]            rsp_lanes;
  logic                   rsp_writes, rsp_v4;
  logic [WarpW-1:0]       rsp_warp;
  logic [4:0]             rsp_reg;
  logic [AddrW-1:0]       rsp_pc;
  logic [32*(OffW-2)-1:0] rsp_words_at;
  logic [31:OffW]         rsp_line;
  logic                   quiet_o_inflight;
  simt_sm_lsu_inflight #(
    .NumWarps  (NumWarps),
    .IdW       (IdW),
    .Slots     (Slots),
    .LineBytes (LineBytes),
    .Sending   (Detach ? SendDepth : 1)  // (one at a time without the sender)
  ) u_inflight (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .free_o       (slot_free),
    .alloc_i      (alloc),
    .warp_i       (warp_i),
    .pc_i         (pc_i),
    .rd_i         (inst_i.rd),
    .writes_i     (!cls.store),
    .v4_i         (cls.v4),
    .words_i      (words),
    .sent_i       (sent),
    .req_i        (req_fire),
    .req_id_i     (next_id_q),
    .req_lanes_i  (group),
    .req_line_i   (line_addr[31:OffW]),
    .out_o        (out),
    .rsp_i        (rsp_ret),  // an id given back
    .rsp_id_i     (rsp_ret_id),
    .rsp_ids_i    (rsp_ret_ids),
    .look_rsp_id_i (mem_rsp_id_i),
    .rsp_lanes_o  (rsp_lanes),
    .rsp_writes_o (rsp_writes),
    .rsp_v4_o     (rsp_v4),
    .rsp_warp_o   (rsp_warp),
    .rsp_reg_o    (rsp_reg),
    .rsp_pc_o     (rsp_pc),
    .rsp_words_o  (rsp_words_at),
    .rsp_line_o   (rsp_line),
    .look_id_i    (look_id_i),
    .look_warp_o  (look_warp_o),
    .de_w_i       (de_w_i),
    .de_regs_i    (de_regs_i),
    .de_membar_i  (de_membar_i),
    .de_hazard_o       (de_hazard_o),
    .de_hazard_slots_o (de_hazard_slots_o),
    .freed_slots_o     (freed_slots_o),
    .warp_busy_o       (warp_busy_o),
    .quiet_o           (quiet_o_inflight)
  );

  assign mem_req_id_o    = next_id_q;
  assign mem_req_we_o    = sd_store;
  assign mem_req_amo_o   = sd_amo;
  assign mem_req_addr_o  = line_addr;
  assign mem_req_be_o    = line_be;
  assign mem_req_wdata_o = line_wdata;
  assign mem_req_cmp_o   = sd_b[leader_lane*32 +: 32];  // cas: rb is the compare value
  // The responses into the register file (the shared-memory unit's write beside them).
  assign sh_we_o = sh_rf_wr;
  simt_sm_lsu_response #(
    .NumLanes  (NumLanes),
    .NumWarps  (NumWarps),
    .IdW       (IdW),
    .LineBytes (LineBytes),
    .Drain     (Drain),
    .AddrW     (AddrW)
  ) u_response (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .mem_rsp_valid_i (mem_rsp_valid_i),
    .mem_rsp_ready_o (mem_rsp_ready_o),
    .mem_rsp_id_i    (mem_rsp_id_i),
    .mem_rsp_err_i   (mem_rsp_err_i),
    .mem_rsp_rdata_i (mem_rsp_rdata_i),
    .out_i           (out),
    .lanes_i         (rsp_lanes),
    .writes_i        (rsp_writes),
    .v4_i            (rsp_v4),
    .warp_i          (rsp_warp),
    .reg_i           (rsp_reg),
    .pc_i            (rsp_pc),
    .words_i         (rsp_words_at),
    .line_i          (rsp_line),
    .fire_o          (rsp_fire),
    .ret_o           (rsp_ret),
    .ret_id_o        (rsp_ret_id),
    .ret_ids_o       (rsp_ret_ids),
    .sh_we_i         (sh_rf_we),
    .sh_wr_i         (sh_rf_wr),
    .sh_waddr_i      ({warp_i, inst_i.rd}),
    .sh_wdata_i      (sh_rf_wdata),
    .rf_busy_i       (rf_busy_i),
    .rf_uaddr_o      (rf_uaddr_o),
    .rf_used_i       (rf_used_i),
    .rf_we_o         (rf_we_o),
    .rf_wr_o         (rf_wr_o),
    .rf_waddr_o      (rf_waddr_o),
    .rf_split_o      (rf_split_o),
    .rf_waddr_lane_o (rf_waddr_lane_o),
    .rf_wdata_o      (rf_wdata_o),
    .rf_late_o       (rf_late_o),
    .wb_wait_o       (wb_wait_o),
    .err_o           (err_q),
    .err_fault_o     (err_fault_q),
    .err_warp_o      (err_warp_q),
    .err_pc_o        (err_pc_q)
  );

  // ---- Sequencing (simt_sm_lsu_ctrl) -------------------------------------------------------
  logic snd_take, snd_last;
  simt_sm_lsu_ctrl #(
    .NumLanes (NumLanes),
    .IdW      (IdW),
    .Detach   (Detach)
  ) u_ctrl (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .start_i           (start_i),
    .exec_i            (exec_i),
    .cls_i             (cls),
    .reads_b_i         (simt_sm_pkg::reads_b(inst_i.op, inst_i.imm_b)),
    .rb_i              (inst_i.rb),
    .state_o           (state_q),
    .elem_o            (elem_q),
    .early_o           (early_q),
    .done_o            (done_o),
    .done_fast_o       (done_fast_o),
    .fault_o           (fault_o),
    .chk_left_i        (chk_left_q),
    .chk_left_next_i   (chk_left_d),
    .chk_fault_i       (chk_fault_q),
    .sh_start_o        (sh_start),
    .sh_done_i         (sh_done),
    .sh_first_next_i   (sh_first_next),
    .sh_pend_next_i    (sh_pend_next),
    .snd_take_o        (snd_take),
    .snd_last_o        (snd_last),
    .snd_busy_i        (snd_q),
    .snd_busy_next_i   (snd_d),
    .snd_room_i        (snd_room),
    .snd_more_i        (snd_more),
    .snd_more_exec_i   (snd_more_exec),
    .slot_free_i       (slot_free),
    .alloc_o           (alloc),
    .sent_o            (sent),
    .out_i             (out),
    .quiet_i           (quiet_o_inflight),
    .err_i             (err_q),
    .err_fault_i       (err_fault_q),
    .pend_o            (pend_q),
    .pend_first_o      (co_first),
    .next_id_o         (next_id_q),
    .group_i           (group),
    .rest_i            (group_rest),
    .req_valid_o       (mem_req_valid_o),
    .req_ready_i       (mem_req_ready_i),
    .req_fire_o        (req_fire),
    .rsp_fire_i        (rsp_fire),
    .rf_re_o           (rf_re_o),
    .rf_re_b_o         (rf_re_b_o),
    .rf_re_c_o         (rf_re_c_o),
    .rf_rb_o           (rf_rb_o),
    .rf_elem_o         (rf_elem_o),
    .rf_grp_o          (rf_grp_o),
    .rd_grp_i          (rd_grp_i),
    .evt_stall_o       (evt_stall_o),
    .evt_id_wait_o     (evt_id_wait_o),
    .evt_slot_wait_o   (evt_slot_wait_o),
    .evt_sender_wait_o (evt_sender_wait_o)
  );

  simt_sm_lsu_sender #(
    .NumLanes (NumLanes),
    .Depth    (Detach ? SendDepth : 0)  // (without Detach nothing joins a queue)
  ) u_sender (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .take_i      (snd_take),
    .exec_i      (exec_i),
    .addr_i      (g_held),
    .data_i      (g_b),
    .gather_i    (state_q == simt_sm_pkg::LsGather),
    .elem_i      (elem_q),
    .cas_i       (cls.cas),
    .swap_i      (opc_i),
    .v4_i        (cls.v4),
    .store_i     (cls.store),
    .amo_i       (amo),
    .done_i      (snd_last),
    .busy_o      (snd_q),
    .busy_next_o (snd_d),
    .room_o      (snd_room),
    .more_o      (snd_more),
    .more_exec_o (snd_more_exec),
    .addr_o      (sd_addr),
    .b_o         (sd_b),
    .leader_i    (leader),
    .data_o      (sd_data),
    .elems_o     (sd_elems),
    .v4_o        (sd_v4),
    .store_o     (sd_store),
    .amo_o       (sd_amo)
  );

  assign quiet_o       = state_q == simt_sm_pkg::LsIdle && !snd_q && quiet_o_inflight;
  assign err_pending_o = err_q;
  assign fault_warp_o  = (state_q == simt_sm_pkg::LsIdle) ? err_warp_q : warp_i;
  assign fault_pc_o    = (state_q == simt_sm_pkg::LsIdle) ? err_pc_q : pc_i;

  assign busy_o = state_q != simt_sm_pkg::LsIdle;

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (state_q == simt_sm_pkg::LsIdle || amo_q == amo_now)
        else $error("sm lsu: the latched atomic operation %0d is not EXEC's %0d", amo_q, amo_now);
      assert (!((start_i || state_q != simt_sm_pkg::LsIdle) &&
                imm_b_i != {32{inst_i.imm_b}}))
        else $error("sm lsu: the copies of imm_b %h differ from the instruction's", imm_b_i);
      assert (!((start_i || state_q != simt_sm_pkg::LsIdle) && imm_i != {simt_sm_pkg::ImmCopies{inst_i.imm}}))
        else $error("sm lsu: the copies of the immediate differ from the instruction's");
      // The register file's ports hold the group on the lanes whenever its operands are used.
      if (checking || (mem_req_valid_o && !snd_q) ||
          (state_q == simt_sm_pkg::LsGather && !snd_q))
        assert (32'(rd_grp_i) == 32'(first) >> $clog2(NumLanes))
          else $error("sm lsu: the ports hold group %0d, the lanes' is %0d", rd_grp_i,
                      32'(first) >> $clog2(NumLanes));
      // An instruction done in CHECK or GATHER hands the sender its one group's addresses
      // and operands off the ports; the lanes may be the sender's older instruction's then
      // (it joins the queue behind it), so the group is the instruction's own.
      if (done_fast_o)
        assert (32'(rd_grp_i) ==
                32'(simt_sm_pkg::group_first(exec_i, NumLanes)) >> $clog2(NumLanes))
          else $error("sm lsu: done with group %0d on the ports, its threads' is %0d", rd_grp_i,
                      32'(simt_sm_pkg::group_first(exec_i, NumLanes)) >> $clog2(NumLanes));
      // The addresses the check kept for the group on the ports are the lanes' adders' on
      // the operands there, for every executing thread, whenever the unit works past the
      // check (the coalescer, the sender and the shared-memory unit take the kept ones); not
      // in the cycle a fault is taken (the group read after the faulting one is not checked).
      if (state_q != simt_sm_pkg::LsIdle && !checking &&
          chk_fault_q.cause == simt_pkg::FltNone) begin
        for (int l = 0; l < NumLanes; l++) begin
          if (exec_i[32'(rd_grp_i) * NumLanes + l])
            assert (g_held[l*32 +: 32] == g_addr[l*32 +: 32])
              else $error("sm lsu: lane %0d of group %0d: kept address %h, the adder's %h", l,
                          rd_grp_i, g_held[l*32 +: 32], g_addr[l*32 +: 32]);
        end
      end
      // An early gather (the sender's group on the lanes) reads its own first group.
      if (state_q == simt_sm_pkg::LsGather && snd_q)
        assert (early_q && 32'(rd_grp_i) ==
                32'(simt_sm_pkg::group_first(exec_i, NumLanes)) >> $clog2(NumLanes))
          else $error("sm lsu: a gather beside the sender on group %0d", rd_grp_i);
      assert (!(sh_clr_i && state_q != simt_sm_pkg::LsIdle))
        else $error("sm lsu: shared-memory clear during an access");
      assert (sh_busy == (state_q == simt_sm_pkg::LsShared))
        else $error("sm lsu: the shared-memory unit busy outside SHARED");
      assert (!(mem_req_valid_o && ((!snd_q && cls.shared) ||
                                    (sd_atom && group != (32'd1 << leader)))))
        else $error("sm lsu: a request that mixes lanes of an atomic, or a shared access");
    end
  end
`endif

endmodule
