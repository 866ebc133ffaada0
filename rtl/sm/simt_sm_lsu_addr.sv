// Load/store unit, addresses: each lane's address, and the check of every executing thread's
// address before any access (docs/blocks/sm.md, "The load/store unit").
//
// The lanes hold one group of NumLanes threads at a time (the register file's read ports:
// opa_i, the bases). Each lane's address (v4: element 0's) is its base plus the immediate, or
// the immediate alone (imm_b); NumLanes adders, each taking its copy of the immediate.
//
// The check (simt_sm_lsu_check) goes over the executing threads' groups one a cycle in
// ascending order, so the first fault found is the first in ISA order: the start cycle checks
// the first group (start_i, the unit idle), CHECK each further one (left_o: the threads whose
// groups are still to check), and the unit acts on the registered answer of the last
// (fault_o; at 32 lanes, or with one group executing, at once: the lanes' adders and compares
// end in a register instead of chaining through the fault into the sequencer and control).
// The operands the start hands in stay valid until the unit is done.
//
// The same pass keeps each thread's word-address low bits as accessed (the immediate's with
// imm_b), complete when CHECK acts: its word in a line (words_o, for the in-flight table) and
// its shared-memory bank (banks_o). Low bits need only their own narrow adder per lane.
//
// With more than one group it also keeps each group's addresses as the check computed them
// (a small RAM, a word a group), and hands the sender, the coalescer and the shared unit those of
// the group the ports hold (held_o, read at rd_grp_i, a register): the same addresses as the
// lanes' adders give on the ports' operands then (asserted in simt_sm_lsu), but not behind a
// block RAM's clock-to-out and a 32-bit adder. The unit's loop from one register-file read
// to the next (the addresses -> the coalescer's or the shared unit's lanes left -> the next
// group -> the banks' read enables) was the board core's critical path (2026-12-06). At 32
// lanes the ports hold the one group throughout: held_o is addr_o.
module simt_sm_lsu_addr #(
  parameter int  NumLanes    = 32,
  parameter int  LineBytes   = 64,
  parameter int  SharedBanks = 32,
  localparam int OffW        = $clog2(LineBytes),
  localparam int BankW       = $clog2(SharedBanks),
  localparam int NumPasses   = 32 / NumLanes,
  localparam int PassW       = (NumPasses > 1) ? $clog2(NumPasses) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   idle_i,     // the unit takes a start
  input  logic                   check_i,    // the unit is in CHECK
  input  logic                   start_i,
  input  logic [31:0]            exec_i,
  input  logic [NumLanes*32-1:0] opa_i,
  input  logic [simt_sm_pkg::ImmCopies*32-1:0] imm_i,  // the immediate, a copy per thread group
  input  logic [31:0]            imm_b_i,    // imm_b, a copy per thread
  input  logic [31:0]            imm_one_i,  // the immediate (the check's, the absolute address)
  input  logic                   abs_i,      // imm_b
  input  logic                   shared_i,
  input  logic                   v4_i,
  input  logic [31:0]            size_i,     // bytes of the memory addressed
  input  logic [32:0]            limit_i,    // ... less the access's (simt_sm_lsu_check)
  output logic [NumLanes*32-1:0] addr_o,     // each lane's address
  input  logic [PassW-1:0]       rd_grp_i,   // the group the register file's ports hold
  output logic [NumLanes*32-1:0] held_o,     // ... its lanes' addresses, kept by the check
  output logic                   checking_o, // the lanes check a group this cycle
  output logic [4:0]             first_o,    // ... its first thread
  output logic [31:0]            left_o,     // threads whose groups are still to check
  output logic [31:0]            left_next_o,
  output simt_sm_pkg::fault_t    fault_o,    // the check's answer so far
  output logic [32*(OffW-2)-1:0] words_o,    // each thread's word in its line
  output logic [32*BankW-1:0]    banks_o     // each thread's shared-memory bank
);

  logic [31:0] todo;  // the executing threads whose groups are still to be checked
  logic [31:0] grp;   // the threads of first_o's group
  logic [31:0] left_q;
  simt_sm_pkg::fault_t grp_fault, check_fault, fault_d, fault_q;
  assign todo       = idle_i ? exec_i : left_q;
  assign first_o    = simt_sm_pkg::group_first(todo, NumLanes);
  assign grp        = simt_sm_pkg::group_of(todo, NumLanes);
  assign checking_o = (idle_i && start_i) ||
                      (check_i && left_q != '0 && fault_q.cause == simt_pkg::FltNone);

  logic [NumLanes*32-1:0] sum;  // the check takes the sums without imm_b (it checks it once)
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      sum[l*32 +: 32]    = opa_i[l*32 +: 32] +
                           imm_i[((l * simt_sm_pkg::ImmCopies) / NumLanes)*32 +: 32];
      addr_o[l*32 +: 32] = imm_b_i[l] ? imm_one_i : sum[l*32 +: 32];
    end
  end

  logic [NumLanes-1:0] grp_exec;  // the group's executing threads, on the lanes
  assign grp_exec = NumLanes'(todo >> first_o);
  simt_sm_lsu_check #(.Lanes(NumLanes)) u_check (
    .exec_i   (grp_exec),
    .addr_i   (sum),
    .abs_i    (abs_i),
    .imm_i    (imm_one_i),
    .shared_i (shared_i),
    .v4_i     (v4_i),
    .size_i   (size_i),
    .limit_i  (limit_i),
    .fault_o  (grp_fault)
  );
  always_comb begin
    check_fault = grp_fault;
    if (grp_fault.lane_v) check_fault.lane = grp_fault.lane | first_o;  // ... as a thread
  end
  assign fault_d      = checking_o ? check_fault : fault_q;
  assign left_next_o  = checking_o ? todo & ~grp : left_q;
  // The registered answer with the address the ISA names (the check's is element 0's).
  assign fault_o = {fault_q.cause, fault_q.lane_v, fault_q.lane,
                    simt_sm_pkg::fault_addr(fault_q.cause, fault_q.addr, size_i)};
  assign left_o       = left_q;

  localparam int LoW = (OffW - 2 > BankW) ? OffW - 2 : BankW;
  logic [32*LoW-1:0] words_d, words_q;
  always_comb begin
    words_d = words_q;
    for (int t = 0; t < 32; t++) begin
      /* verilator lint_off UNUSEDSIGNAL */
      logic [LoW+1:0] lo;  // its byte bits: carries into the word bits only
      /* verilator lint_on UNUSEDSIGNAL */
      lo = opa_i[(t % NumLanes)*32 +: LoW+2] +
           imm_i[(((t % NumLanes) * simt_sm_pkg::ImmCopies) / NumLanes)*32 +: LoW+2];
      if (checking_o && grp[t]) begin
        words_d[t*LoW +: LoW] = imm_b_i[t] ? imm_one_i[2 +: LoW] : lo[LoW+1:2];
      end
      words_o[t*(OffW-2) +: (OffW-2)] = words_q[t*LoW +: (OffW-2)];
      banks_o[t*BankW +: BankW]       = words_q[t*LoW +: BankW];
    end
  end

  // Each group's addresses, written as the check passes over it (its word: first_o's group).
  if (NumPasses > 1) begin : g_held
    simt_ram_async #(
      .Width (NumLanes * 32),
      .Depth (NumPasses)
    ) u_held (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .we_i    (checking_o),
      .waddr_i (PassW'(32'(first_o) >> $clog2(NumLanes))),
      .wdata_i (addr_o),
      .raddr_i (rd_grp_i),
      .rdata_o (held_o)
    );
  end else begin : g_one
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_grp;  // (one group: the ports always hold it)
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_grp = rd_grp_i[0];
    assign held_o     = addr_o;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fault_q <= '0;
      left_q  <= '0;
      words_q <= '0;
    end else begin
      fault_q <= fault_d;
      left_q  <= left_next_o;
      words_q <= words_d;
    end
  end

`ifdef VERILATOR
  // The reference for the group-by-group check: all 32 threads' addresses (as the groups on
  // the lanes gave them) checked at once.
  logic [32*32-1:0]    ref_addr, ref_addr_q;
  simt_sm_pkg::fault_t ref_fault;
  always_comb begin
    ref_addr = ref_addr_q;
    for (int t = 0; t < 32; t++) begin
      if (checking_o && grp[t]) ref_addr[t*32 +: 32] = opa_i[(t % NumLanes)*32 +: 32] + imm_one_i;
    end
  end
  always_ff @(posedge clk_i) ref_addr_q <= ref_addr;
  simt_sm_lsu_check #(.Lanes(32)) u_ref_check (
    .exec_i   (exec_i),
    .addr_i   (ref_addr_q),
    .abs_i    (abs_i),
    .imm_i    (imm_one_i),
    .shared_i (shared_i),
    .v4_i     (v4_i),
    .size_i   (size_i),
    .limit_i  (limit_i),
    .fault_o  (ref_fault)
  );
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // When CHECK acts, the answer of the group-by-group check is the one of all 32 threads'
      // addresses at once, on the operands held since the start.
      if (check_i && (left_q == '0 || fault_q.cause != simt_pkg::FltNone))
        assert (fault_q == ref_fault)
          else $error("sm lsu: the address check by groups %p differs from the whole warp's %p",
                      fault_q, ref_fault);
    end
  end
`endif

endmodule
