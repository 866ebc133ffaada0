// Load/store unit: a warp's loads, stores and atomics on global memory over the line-wide
// memory port (docs/blocks/mem_port.md) and on the on-chip shared memory it owns
// (docs/blocks/sm.md, "The load/store unit"). This file sequences an instruction through its
// parts:
//
//   simt_sm_lsu_addr      each lane's address; every executing thread's address checked,
//                         a group a cycle, before any access (a faulting instruction has no
//                         effect; the fault names the first thread in ISA order)
//   simt_sm_lsu_shared    banked shared memory, conflicts serialised
//   simt_sm_lsu_coalesce  a global access's next request: one per distinct line
//   simt_sm_lsu_sender    the copies from which a done instruction sends its further requests
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
// passed the check and it holds a slot: a global access whose threads are one group (every
// instruction at 32 lanes) hands its addresses and operands to the sender in CHECK and is
// done there (a v4 store once its elements are gathered: GATHER reads its four element
// registers on port b, one a cycle); the sender is a queue of SendDepth such instructions,
// which the next ones join while it works (a v4 store gathers meanwhile), and an instruction
// that cannot join waits in CHECK. Its responses come back while the core goes on. A response
// with an error is a fault reported once nothing is in flight (fault_o while idle, with the
// instruction's warp and PC).
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
  output logic                   done_fast_o,    // done_o in CHECK from registered state alone
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
  output logic [NumWarps-1:0]    freed_o,
  output logic [NumWarps-1:0]    warp_busy_o,    // warps whose registers a slot still needs
  input  logic [IdW-1:0]         look_id_i,
  output logic [WarpW-1:0]       look_warp_o,

  // Register file: the reads (ports a and c: the instruction's ra and rc, port b: rf_rb_o)
  // of a group for the next cycle, the ports' data (the group rd_grp_i), the write.
  output logic                   rf_re_o,
  output logic                   rf_re_b_o,
  output logic                   rf_re_c_o,
  output logic [4:0]             rf_rb_o,
  output logic [PassW-1:0]       rf_grp_o,
  input  logic [NumLanes*32-1:0] opa_i,
  input  logic [NumLanes*32-1:0] opb_i,
  input  logic [NumLanes*32-1:0] opc_i,
  input  logic [PassW-1:0]       rd_grp_i,
  output logic [31:0]            rf_we_o,
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

  simt_sm_pkg::lsu_state_e state_d, state_q;
  logic [31:0]             pend_d, pend_q;     // lanes still to request in this pass
  logic [1:0]              elem_d, elem_q;     // a v4 store's element on port b (GATHER)
  logic [NumLanes*96-1:0]  v4d_d, v4d_q;       // ... its group's elements 0-2 (lane l: l*96)
  logic                    early_d, early_q;   // ... gathered while the sender works, no slot yet
  logic [IdW-1:0]          next_id_d, next_id_q;
  logic                    err_q;              // a response came back with an error
  simt_sm_pkg::fault_t     err_fault_q;        // ... the first (simt_sm_lsu_response)
  logic [WarpW-1:0]        err_warp_q;
  logic [AddrW-1:0]        err_pc_q;
  // The sender (Detach, simt_sm_lsu_sender): instructions already done put out their requests
  // from the sender's copies, in order; the sequencing hands one over (snd_take) and says when
  // the oldest's last request is sent (snd_last).
  logic                    snd_q, snd_d, snd_take, snd_last, snd_room, snd_more;
  logic [31:0]             snd_more_exec;
  logic [NumLanes*32-1:0]  s_addr_q, s_data_q;
  logic [NumLanes*96-1:0]  s_elems_q;
  logic                    s_v4_q, s_store_q;
  logic [3:0]              s_amo_q;

  /* verilator lint_off UNUSEDSIGNAL */
  simt_sm_pkg::cls_t cls;
  /* verilator lint_on UNUSEDSIGNAL */
  assign cls = simt_sm_pkg::classify(inst_i.op);
  logic v4_store;
  assign v4_store = cls.v4 && cls.store;

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
  assign co_first  = simt_sm_pkg::group_first(pend_q, NumLanes);
  assign first     = (state_q == simt_sm_pkg::LsShared) ? sh_first :
                     checking ? chk_first : co_first;
  // Each lane's address, and the check of every executing thread's address, a group a cycle
  // before any request (simt_sm_lsu_addr).
  logic [NumLanes*32-1:0] g_addr, g_b;
  simt_sm_pkg::fault_t    chk_fault_q;
  logic                   chk_clean_d;
  logic [32*(OffW-2)-1:0] words;  // each thread's word in its line
  logic [32*BankW-1:0]    banks;  // ... its shared-memory bank
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
    .addr_o       (g_addr),
    .checking_o   (checking),
    .first_o      (chk_first),
    .left_o       (chk_left_q),
    .left_next_o  (chk_left_d),
    .fault_o      (chk_fault_q),
    .clean_next_o (chk_clean_d),
    .words_o      (words),
    .banks_o      (banks)
  );
  assign g_b    = opb_i;  // store data, an atomic's operand, cas's compare value; a v4
                         // store's element (port b reads its register: GATHER)
  // rc (cas: the swap value) matters at the atomic's one thread only, the leader of the unit
  // working: one NumLanes:1 select of port c.
  logic [4:0]  leader, sh_leader, lead;
  logic [31:0] c_lead;
  assign lead   = (state_q == simt_sm_pkg::LsShared) ? sh_leader : leader;
  assign c_lead = opc_i[(32'(lead) % NumLanes)*32 +: 32];
  // The atomic operation (the ISA's sub field plus one; cas).
  logic [3:0] amo;
  assign amo = !cls.atom ? simt_mem_pkg::AmoNone
             : cls.cas   ? simt_mem_pkg::AmoCas
                         : 4'(inst_i.sub[2:0]) + 4'd1;

  // ---- Shared memory ------------------------------------------------------------------------
  logic        sh_start, sh_done;
  /* verilator lint_off UNUSEDSIGNAL */
  logic        sh_busy;  // checked
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0] sh_rf_we;
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
    .addr_i     (g_addr),
    .data_i     (g_b),
    .swap_i     (c_lead),
    .wb_bank_i  (banks),
    .store_i    (cls.store),
    .atom_i     (cls.atom),
    .amo_i      (amo),
    .busy_o     (sh_busy),
    .done_o     (sh_done),
    .conflict_o (evt_conflict_o),
    .rf_we_o    (sh_rf_we),
    .rf_wdata_o (sh_rf_wdata),
    .clr_i      (sh_clr_i),
    .clr_addr_i (sh_clr_addr_i)
  );

  // ---- Global memory: the next request ------------------------------------------------------
  // Its instruction: the sender's oldest while it works (the core has moved on: the ports,
  // inst_i and exec_i are another instruction's), else the one in the unit.
  logic                   sd_v4, sd_store, sd_v4st, sd_atom, sd_cas;
  logic [3:0]             sd_amo;
  logic [NumLanes*32-1:0] sd_addr, sd_data, sd_b;  // (sd_data: below)
  logic [31:0]            sd_c_lead;  // cas: the leader's swap value (rc)
  assign sd_v4   = snd_q ? s_v4_q : cls.v4;
  assign sd_store = snd_q ? s_store_q : cls.store;
  assign sd_v4st = sd_v4 && sd_store;
  assign sd_amo  = snd_q ? s_amo_q : amo;
  assign sd_atom = sd_amo != simt_mem_pkg::AmoNone;
  assign sd_cas  = sd_amo == simt_mem_pkg::AmoCas;
  assign sd_b    = snd_q ? s_data_q : g_b;
  assign sd_addr = snd_q ? s_addr_q : g_addr;
  // What the sender keeps beside the data: a v4 store's gathered elements 0-2, or cas's swap
  // values (port c: rc) at element 0's place.
  logic [NumLanes*96-1:0] s_elems_in;
  always_comb begin
    s_elems_in = v4d_q;
    for (int l = 0; l < NumLanes; l++) begin
      if (cls.cas) s_elems_in[l*96 +: 32] = opc_i[l*32 +: 32];
    end
  end
  // The request's data: a v4 store's element 0 (elements 1-2 beside it, element 3 in rb's
  // place: the sender's copies, or gathered with element 3 on port b); cas: the swap value
  // (rc; the leader is the request's one lane); else rb.
  logic [NumLanes*96-1:0] sd_elems, sd_e012;
  assign sd_e012   = snd_q ? s_elems_q : v4d_q;
  assign sd_c_lead = snd_q ? s_elems_q[(32'(leader) % NumLanes)*96 +: 32] : c_lead;
  always_comb begin
    sd_data = sd_cas ? {NumLanes{sd_c_lead}} : sd_b;
    for (int l = 0; l < NumLanes; l++) begin
      if (sd_v4st) sd_data[l*32 +: 32] = sd_e012[l*96 +: 32];
      sd_elems[l*96 +: 96] = {sd_b[l*32 +: 32], sd_e012[l*96 + 32 +: 64]};
    end
  end
  logic [LaneW-1:0]       leader_lane;
  logic [31:0]            group;
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
    .line_addr_o (line_addr),
    .be_o        (line_be),
    .wdata_o     (line_wdata)
  );

  // ---- Global memory: the in-flight table and the scoreboard --------------------------------
  // (The v4 drain's: a line taken, an id given back; below.)
  logic [NumIds-1:0]      out;
  logic                   rsp_ret;
  logic [IdW-1:0]         rsp_ret_id;
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
    .de_hazard_o  (de_hazard_o),
    .freed_o      (freed_o),
    .warp_busy_o  (warp_busy_o),
    .quiet_o      (quiet_o_inflight)
  );

  // CHECK of a global access whose addresses passed (chk_ready). With the sender empty
  // (chk_global) it takes a slot (else waits for one) and all but a v4 store send their first
  // request in the same cycle (go_now): the check's answer and the free slot are registered,
  // so that request waits for nothing the start cycle computes. Requests go out in GLOBAL
  // after that, or from the sender when the instruction detaches: an access of one group
  // (Detach), done in CHECK whatever the memory answers (done_fast_o). With the sender
  // busy, a detaching access joins its queue when there is room and a slot (enq_go: done in
  // CHECK, nothing sent yet); any other waits until the sender is empty (requests go out in
  // instruction order; a fault is reported only then).
  logic chk_passed, chk_ready, chk_global, go_now, sending, detach, enq_ok, enq_go;
  assign chk_passed = state_q == simt_sm_pkg::LsCheck && chk_left_q == '0 &&
                      chk_fault_q.cause == simt_pkg::FltNone;
  assign chk_ready  = chk_passed && !cls.shared;
  assign chk_global = chk_ready && !snd_q;
  // A global access detaches in CHECK (a v4 store once gathered) when its threads are one
  // group (the sender holds one group's addresses).
  logic one_group;
  assign one_group  = Detach && (exec_i & ~simt_sm_pkg::group_of(exec_i, NumLanes)) == '0;
  assign detach     = one_group && !v4_store;
  assign go_now     = chk_global && slot_free && !v4_store;
  assign enq_ok     = chk_ready && snd_q && snd_room && detach;
  assign enq_go     = enq_ok && slot_free;
  // A v4 store whose addresses passed gathers its elements while the sender still puts out
  // the instructions before's requests (early): with element 3 on port b it then joins the
  // sender's queue when there is room and a slot (gather_enq; a store of more than one group
  // never does), or once the sender is done takes its slot and sends its first request in
  // one cycle (gather_go).
  logic early_go, early_wait, gather_go, gather_enq_ok, gather_enq;
  assign early_go   = chk_passed && snd_q && v4_store;
  assign early_wait = state_q == simt_sm_pkg::LsGather && elem_q == 2'd3 && early_q;
  assign gather_go  = state_q == simt_sm_pkg::LsGather && elem_q == 2'd3 &&
                      (!early_q || (!snd_q && slot_free));
  assign gather_enq_ok = early_wait && snd_q && snd_room && one_group;
  assign gather_enq = gather_enq_ok && slot_free;
  assign done_fast_o = (go_now && detach) || enq_go;
  // (A v4 store sends from GATHER's last cycle on: element 3 is on port b then.)
  assign sending    = state_q == simt_sm_pkg::LsGlobal || go_now || snd_q || gather_go;
  assign mem_req_valid_o = sending && pend_q != '0 && !out[next_id_q];
  // Why a global instruction waits, besides the memory's back-pressure: every id in use (the
  // next one still outstanding), or every slot of the in-flight table busy.
  assign evt_id_wait_o   = sending && pend_q != '0 && out[next_id_q];
  assign evt_slot_wait_o = (chk_global || enq_ok || (early_wait && (!snd_q || gather_enq_ok))) &&
                           !slot_free;
  assign evt_sender_wait_o = (state_q == simt_sm_pkg::LsCheck && chk_left_q == '0 && snd_q &&
                              !early_go && !enq_ok) || (early_wait && snd_q && !gather_enq_ok);
  assign mem_req_id_o    = next_id_q;
  assign mem_req_we_o    = sd_store;
  assign mem_req_amo_o   = sd_amo;
  assign mem_req_addr_o  = line_addr;
  assign mem_req_be_o    = line_be;
  assign mem_req_wdata_o = line_wdata;
  assign mem_req_cmp_o   = sd_b[leader_lane*32 +: 32];  // cas: rb is the compare value
  // The responses into the register file (the shared-memory unit's write beside them).
  assign sh_we_o = sh_rf_we != '0;
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
    .sh_we_i         (sh_rf_we),
    .sh_waddr_i      ({warp_i, inst_i.rd}),
    .sh_wdata_i      (sh_rf_wdata),
    .rf_busy_i       (rf_busy_i),
    .rf_uaddr_o      (rf_uaddr_o),
    .rf_used_i       (rf_used_i),
    .rf_we_o         (rf_we_o),
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
  assign req_fire = mem_req_valid_o && mem_req_ready_i;

  // ---- Sequencing ---------------------------------------------------------------------------
  always_comb begin
    state_d     = state_q;
    pend_d      = pend_q;
    elem_d      = elem_q;
    next_id_d   = next_id_q;
    v4d_d       = v4d_q;
    early_d     = early_q;
    snd_take    = 1'b0;
    snd_last    = 1'b0;
    sh_start    = 1'b0;
    alloc       = 1'b0;
    sent        = 1'b0;
    done_o      = 1'b0;
    fault_o     = '0;
    evt_stall_o = 1'b0;

    if (req_fire) begin
      pend_d    = pend_q & ~group;
      next_id_d = next_id_q + 1'b1;
    end

    unique case (state_q)
      simt_sm_pkg::LsIdle: begin
        // The first error response, once nothing is in flight.
        if (err_q && quiet_o_inflight) fault_o = err_fault_q;
        if (start_i) begin
          if (!snd_q) begin  // (else the sender's until it is done: below)
            pend_d = exec_i;
            elem_d = '0;
          end
          state_d = simt_sm_pkg::LsCheck;
        end
      end
      simt_sm_pkg::LsCheck: begin
        if (early_go) begin
          // A v4 store gathers meanwhile (above), from element 0.
          elem_d  = '0;
          early_d = 1'b1;
          state_d = simt_sm_pkg::LsGather;
        end else if (enq_go) begin
          // Done: it joins the sender's queue (above).
          alloc    = 1'b1;
          done_o   = 1'b1;
          snd_take = 1'b1;
          state_d  = simt_sm_pkg::LsIdle;
        end else if (snd_q) begin
          // The sender puts out the requests of the instructions before: CHECK acts (and a
          // fault is reported) once it is done, so requests go out in instruction order.
        end else if (chk_fault_q.cause != simt_pkg::FltNone) begin
          fault_o = chk_fault_q;
          state_d = simt_sm_pkg::LsIdle;
        end else if (chk_left_q != '0) begin
          // Another group's addresses are on the lanes' checks (checking): CHECK again.
        end else if (cls.shared) begin
          sh_start = 1'b1;
          state_d  = simt_sm_pkg::LsShared;
        end else if (slot_free) begin
          // chk_global: the slot now, and the first request unless a v4 store gathers first.
          alloc = 1'b1;
          if (v4_store) begin
            state_d = simt_sm_pkg::LsGather;
          end else if (detach) begin
            // Done: the sender takes the group's addresses and store data off the ports
            // (which DE may read from the next cycle) and puts out what the first request
            // below leaves.
            done_o   = 1'b1;
            snd_take = 1'b1;
            state_d  = simt_sm_pkg::LsIdle;
          end else begin
            state_d = simt_sm_pkg::LsGlobal;
          end
        end
      end
      simt_sm_pkg::LsGather: begin
        // Element elem_q of the group is on port b: elements 0-2 are kept, the next element's
        // register is read meanwhile; with element 3 on the port the group's lines go out, one
        // request a cycle (port b reads element 3 again while they do).
        for (int l = 0; l < NumLanes; l++) begin
          for (int e = 0; e < 3; e++) begin  // (constant selects: no shifter across v4d)
            if (elem_q == 2'(e)) v4d_d[l*96 + 32*e +: 32] = g_b[l*32 +: 32];
          end
        end
        if (early_wait) begin
          // Gathered early: the slot when it joins the sender's queue, or once the sender is
          // done (and one is free) with the first request, then on as gathered after CHECK.
          // Until then element 3 stays on port b.
          alloc   = gather_go || gather_enq;
          early_d = !(gather_go || gather_enq);
        end
        if (early_wait && !gather_go && !gather_enq) begin
          // (waiting)
        end else if (elem_q == 2'd3 && one_group) begin
          // Done (Detach): the sender keeps element 3 (elements 0-2 stay here: the next v4
          // store gathers only after the sender is done) and puts out what the first request
          // leaves.
          done_o   = 1'b1;
          snd_take = 1'b1;
          state_d  = simt_sm_pkg::LsIdle;
        end else if (elem_q == 2'd3) begin
          state_d = simt_sm_pkg::LsGlobal;
        end else begin
          elem_d   = elem_q + 2'd1;
        end
      end
      simt_sm_pkg::LsGlobal: ;
      simt_sm_pkg::LsShared: begin
        if (sh_done) begin
          done_o  = 1'b1;
          state_d = simt_sm_pkg::LsIdle;
        end
      end
      default: state_d = simt_sm_pkg::LsIdle;
    endcase

    // Sending requests (GLOBAL, or CHECK's first request): the next group, element or the
    // end. The first request of an instruction may go in CHECK, so the instruction may be
    // done there (one line: one request).
    if (sending) begin
      evt_stall_o = !req_fire && !rsp_fire;
      if (!snd_q && sd_v4st && req_fire && pend_d != '0 &&
          (pend_d & simt_sm_pkg::group_of(pend_q, NumLanes)) == '0) begin
        // The next group of a v4 store (fewer lanes than threads): gather its elements.
        elem_d  = '0;
        state_d = simt_sm_pkg::LsGather;
      end else if (pend_d == '0) begin
        // Every request sent: the core goes on while the responses come. The sender's last:
        // the instruction in the unit (checking, or starting now) has the coalescer next.
        sent     = 1'b1;
        snd_last = 1'b1;
        if (snd_q) begin
          // The next in the sender's queue, else the instruction in the unit.
          pend_d = snd_more ? snd_more_exec :
                   (state_q != simt_sm_pkg::LsIdle || start_i) ? exec_i : '0;
          if (!early_q) elem_d = '0;  // (an early gather goes on)
        end else begin
          done_o  = 1'b1;
          state_d = simt_sm_pkg::LsIdle;
        end
      end
    end
  end

  simt_sm_lsu_sender #(
    .NumLanes (NumLanes),
    .Depth    (SendDepth)
  ) u_sender (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .take_i      (snd_take),
    .exec_i      (exec_i),
    .addr_i      (g_addr),
    .data_i      (g_b),
    .elems_i     (s_elems_in),
    .v4_i        (cls.v4),
    .store_i     (cls.store),
    .amo_i       (amo),
    .done_i      (snd_last),
    .busy_o      (snd_q),
    .busy_next_o (snd_d),
    .room_o      (snd_room),
    .more_o      (snd_more),
    .more_exec_o (snd_more_exec),
    .addr_o      (s_addr_q),
    .data_o      (s_data_q),
    .elems_o     (s_elems_q),
    .v4_o        (s_v4_q),
    .store_o     (s_store_q),
    .amo_o       (s_amo_q)
  );

  // The register-file reads: while the unit works next cycle, the group its lanes need then
  // (the check's next group, else the shared-memory unit's or the coalescer's) when it is
  // not the group the ports hold, on port a the addresses, on port b the data, on port c
  // cas's swap value; and a v4 store's element registers on port b (GATHER's next, or
  // element 0 of the next group). Groups are read once after the check, in ascending order,
  // so a group is never read again once its requests went out: the instruction's responses
  // may write its own operands (ld r5, [r5]). In the cycle the unit is done it reads
  // nothing (DE may read then: decode gives DE precedence, simt_sm asserts it), nor while a
  // shared load's last words wait to be written (no group is left to read: a read of group 0
  // then met the write of its last threads' results in one bank entry).
  logic [4:0] first_next;
  logic       reads, regroup;
  always_comb begin
    if (state_d == simt_sm_pkg::LsCheck && chk_left_d != '0 &&
        chk_clean_d) begin
      first_next = simt_sm_pkg::group_first(chk_left_d, NumLanes);
    end else if (state_d == simt_sm_pkg::LsShared) begin
      first_next = sh_first_next;
    end else begin
      // (While the sender works on, the unit's instruction has sent nothing yet.)
      first_next = simt_sm_pkg::group_first(snd_d ? exec_i : pend_d, NumLanes);
    end
  end
  assign reads     = (start_i || state_q != simt_sm_pkg::LsIdle) &&
                     state_d != simt_sm_pkg::LsIdle &&
                     !(state_d == simt_sm_pkg::LsShared && !sh_pend_next);
  assign regroup   = rf_grp_o != rd_grp_i;
  assign rf_re_o   = reads && regroup;
  assign rf_re_b_o = reads && ((simt_sm_pkg::reads_b(inst_i.op, inst_i.imm_b) && regroup) ||
                               v4_store);
  assign rf_re_c_o = reads && cls.cas && regroup;
  assign rf_rb_o   = v4_store ? inst_i.rb + {3'd0, elem_d} : inst_i.rb;
  assign rf_grp_o  = PassW'(32'(first_next) >> $clog2(NumLanes));

  assign quiet_o       = state_q == simt_sm_pkg::LsIdle && !snd_q && quiet_o_inflight;
  assign err_pending_o = err_q;
  assign fault_warp_o  = (state_q == simt_sm_pkg::LsIdle) ? err_warp_q : warp_i;
  assign fault_pc_o    = (state_q == simt_sm_pkg::LsIdle) ? err_pc_q : pc_i;

  assign busy_o = state_q != simt_sm_pkg::LsIdle;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= simt_sm_pkg::LsIdle;
      pend_q      <= '0;
      elem_q      <= '0;
      v4d_q       <= '0;
      early_q     <= 1'b0;
      next_id_q   <= '0;
    end else begin
      state_q     <= state_d;
      pend_q      <= pend_d;
      elem_q      <= elem_d;
      v4d_q       <= v4d_d;
      early_q     <= early_d;
      next_id_q   <= next_id_d;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(start_i && (state_q != simt_sm_pkg::LsIdle || exec_i == '0)))
        else $error("sm lsu: start while busy or without executing lanes");
      assert (!((start_i || state_q != simt_sm_pkg::LsIdle) &&
                imm_b_i != {32{inst_i.imm_b}}))
        else $error("sm lsu: the copies of imm_b %h differ from the instruction's", imm_b_i);
      assert (!((start_i || state_q != simt_sm_pkg::LsIdle) && imm_i != {simt_sm_pkg::ImmCopies{inst_i.imm}}))
        else $error("sm lsu: the copies of the immediate differ from the instruction's");
      // The register file's ports hold the group on the lanes whenever its operands are used.
      if (checking || (mem_req_valid_o && !snd_q) || done_fast_o ||
          (state_q == simt_sm_pkg::LsGather && !snd_q))
        assert (32'(rd_grp_i) == 32'(first) >> $clog2(NumLanes))
          else $error("sm lsu: the ports hold group %0d, the lanes' is %0d", rd_grp_i,
                      32'(first) >> $clog2(NumLanes));
      // An early gather (the sender's group on the lanes) reads its own first group.
      if (state_q == simt_sm_pkg::LsGather && snd_q)
        assert (early_q && 32'(rd_grp_i) ==
                32'(simt_sm_pkg::group_first(exec_i, NumLanes)) >> $clog2(NumLanes))
          else $error("sm lsu: a gather beside the sender on group %0d", rd_grp_i);
      // Early: a v4 store gathering beside the sender, before its slot.
      assert (!early_q || (state_q == simt_sm_pkg::LsGather && v4_store))
        else $error("sm lsu: an early gather outside GATHER");
      assert (!(sh_clr_i && state_q != simt_sm_pkg::LsIdle))
        else $error("sm lsu: shared-memory clear during an access");
      assert (sh_busy == (state_q == simt_sm_pkg::LsShared))
        else $error("sm lsu: the shared-memory unit busy outside SHARED");
      assert (!(mem_req_valid_o && ((!snd_q && cls.shared) ||
                                    (sd_atom && group != (32'd1 << leader)))))
        else $error("sm lsu: a request that mixes lanes of an atomic, or a shared access");
      assert (!(mem_req_valid_o && sd_v4st && !snd_q &&
                !(state_q == simt_sm_pkg::LsGlobal ||
                  (state_q == simt_sm_pkg::LsGather && elem_q == 2'd3))))
        else $error("sm lsu: a v4 store's request before its group's elements are gathered");
      // The sender: only with Detach, one instruction at a time (the next takes its slot after
      // it), on a plain access of one group; done_fast_o is a done of CHECK.
      assert (!(snd_q && !Detach))
        else $error("sm lsu: the sender works without Detach");
      assert (!(snd_q && (state_q == simt_sm_pkg::LsGlobal ||
                          (state_q == simt_sm_pkg::LsGather && !early_q) ||
                          state_q == simt_sm_pkg::LsShared)))
        else $error("sm lsu: the sender works beside an attached access");
      assert (!(alloc && snd_q && !snd_take))
        else $error("sm lsu: a slot taken while the sender works on, not to join its queue");
      assert (!(snd_q && (pend_q & ~simt_sm_pkg::group_of(pend_q, NumLanes)) != '0))
        else $error("sm lsu: the sender holds threads of two groups");
      assert (!(done_fast_o && !(done_o && state_q == simt_sm_pkg::LsCheck)))
        else $error("sm lsu: a fast done outside CHECK's done");
    end
  end
`endif

endmodule
