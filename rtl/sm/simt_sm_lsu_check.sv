// Load/store unit, address check: every executing lane's access against alignment and the
// memory's size, before any lane's access is performed, so that a faulting memory
// instruction has no effect (precise faults: docs/blocks/sm.md). The fault named is the
// first in ISA order (ascending lane, then v4 element): a lane's misalignment (v4: element
// 0 on 16 bytes) before its first element past the end.
//
// An absolute address (abs_i: operand b is the immediate and no base is added) is the same
// for every lane: it is checked once, so the lanes' sums need no masking of their bases.
//
// Lanes: the lanes checked at once (the load/store unit's NumLanes: a group of threads per
// cycle, issue #26); fault_o.lane is the lane within them.
//
// fault_o.addr is the first bad thread's element-0 address, which simt_sm_pkg::fault_addr
// turns into the address the ISA names (a v4 access's first element past the end) once the
// answer is registered: the subtraction from the memory's end and the addition after it are
// not behind the lanes' checks (2026-12-07: a register-file bank's read data -> the address
// adder -> this check -> its verdict was a routed critical path of the board core).
module simt_sm_lsu_check #(
  parameter int Lanes = 32
) (
  input  logic [Lanes-1:0]    exec_i,
  input  logic [Lanes*32-1:0] addr_i,    // each lane's base + immediate (v4: element 0's)
  input  logic                abs_i,     // ... unless every lane's address is imm_i
  input  logic [31:0]         imm_i,
  input  logic                shared_i,
  input  logic                v4_i,
  input  logic [31:0]         size_i,    // bytes of the memory addressed
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [32:0]         limit_i,   // size_i - the access's bytes (4, v4: 16): its low
                                         // bits are size's (4 and 16 are whole words)
  /* verilator lint_on UNUSEDSIGNAL */
  output simt_sm_pkg::fault_t fault_o
);

  // One limit for every lane: an access fits when its address is at most size - bytes. The
  // caller computes it from the configuration for each memory and width and picks one by the
  // instruction's class, so the subtraction is not behind the class (the board core's
  // critical path ran through the class, the size's mux and this subtraction, 2026-12-06).
  logic [31:2] nlim;  // ~limit's word index, once for every lane's comparison
  assign nlim  = ~limit_i[31:2];

  // Whether an address is misaligned, and past the limit. An aligned address (the only kind
  // that can fit) is past it when its word index is past the limit's: a + ~limit carries
  // (a > limit), on words, without an inverter per lane.
  function automatic logic [1:0] mis_over(logic [31:0] a, logic v4, logic [29:0] nl);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [30:0] s;  // its carry
    /* verilator lint_on UNUSEDSIGNAL */
    s = {1'b0, a[31:2]} + {1'b0, nl};
    mis_over = {v4 ? (a[3:0] != 4'd0) : (a[1:0] != 2'b00), s[30]};
  endfunction

  logic [1:0]       imm_mo;
  logic [Lanes-1:0] bad;
  logic [Lanes-1:0] misaligned;
  assign imm_mo = mis_over(imm_i, v4_i, nlim);
  always_comb begin
    for (int l = 0; l < Lanes; l++) begin
      logic [1:0] mo;
      mo            = abs_i ? imm_mo : mis_over(addr_i[l*32 +: 32], v4_i, nlim);
      misaligned[l] = mo[1];
      bad[l]        = exec_i[l] && (mo[1] || limit_i[32] || mo[0]);
    end
  end

  // The first bad lane: its cause and element-0 address (simt_sm_pkg::fault_addr finishes it).
  logic [4:0]  first;
  logic        mis_first;
  assign mis_first  = misaligned[32'(first) % Lanes];
  assign first      = simt_sm_pkg::lowest(32'(bad));
  always_comb begin
    fault_o = '0;
    if (bad != '0) begin
      fault_o.cause  = shared_i ? (mis_first ? simt_pkg::FltSharedAlign
                                             : simt_pkg::FltSharedRange)
                                : (mis_first ? simt_pkg::FltGlobalAlign
                                             : simt_pkg::FltGlobalRange);
      fault_o.lane_v = 1'b1;
      fault_o.lane   = first;
      fault_o.addr   = abs_i ? imm_i : addr_i[(32'(first) % Lanes)*32 +: 32];
    end
  end

`ifdef VERILATOR
  always_comb begin
    assert (limit_i == {1'b0, size_i} - (v4_i ? 33'd16 : 33'd4))
      else $error("sm lsu check: limit %h for %0d bytes (v4 %b)", limit_i, size_i, v4_i);
  end
`endif

endmodule
