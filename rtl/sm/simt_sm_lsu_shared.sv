// Load/store unit, shared memory: the CTAs' on-chip shared memory in Banks word-interleaved
// banks (bank = word index mod Banks), and a warp instruction's accesses to it.
//
// Loads and stores serve every lane whose bank no lower lane still waiting uses for another
// word, each cycle: a conflict-free access (lanes in distinct banks, or on one word, a
// broadcast) takes one cycle, and conflicts are serialised by bank, not lane by lane. Lanes
// storing to one word are served together and the highest one's data is written (ascending
// lane order). Atomics go one lane per two cycles (read, then write), in ascending lane
// order. A load's words reach the register file the cycle after their banks are read.
//
// With NumLanes physical lanes (issue #26) the crossbar serves one group of NumLanes threads
// at a time, grouped as the pass sequencer does (simt_sm_pkg::group_of): the group of the
// lowest thread waiting (first_o), its threads on lanes 0 .. NumLanes-1 (lane l: thread
// first + l): the register file's read ports hold the group's operands for this unit and the
// coalescer (first_next_o: the group of the next cycle, which simt_sm_lsu has the register
// file read the cycle before). Bank conflicts are found and serialised within the group; the next group
// starts the cycle after the group's last access. The loaded words leave on the lanes
// (rf_wdata_o); the register file stays 32 threads wide: lane l's word is for thread
// first + l (simt_sm_lsu puts lane t mod NumLanes's word on thread t; the write enables name
// the group's threads). At 32 lanes there is one group.
module simt_sm_lsu_shared #(
  parameter int  NumLanes    = 32,
  parameter int  NumCtas     = 4,
  parameter int  SharedWords = 1024,
  parameter int  Banks       = 32,
  localparam int CtaW        = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int ShAW        = $clog2(NumCtas * SharedWords),
  localparam int IdxW        = $clog2(SharedWords),
  localparam int BankW       = $clog2(Banks),
  localparam int RowW        = ShAW - BankW,
  localparam int LaneW       = $clog2(NumLanes)
) (
  input  logic                clk_i,
  input  logic                rst_ni,

  input  logic                start_i,   // the lanes in exec_i, with the operands below
  input  logic [31:0]         exec_i,
  input  logic [CtaW-1:0]     cta_i,
  output logic [4:0]          first_o,   // the group on the lanes: its first thread
  output logic [4:0]          first_next_o,  // ... next cycle (the register file reads it)
  output logic                pend_next_o,   // ... there is one (threads wait next cycle)
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [NumLanes*32-1:0] addr_i, // the group's byte addresses (checked; their words')
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [NumLanes*32-1:0] data_i, // the group's store data / atomic operands
  output logic [4:0]          leader_o,  // an atomic's thread (the lowest waiting)
  input  logic [31:0]         swap_i,    // cas: its value swapped in
  input  logic [32*BankW-1:0] wb_bank_i, // every thread's bank (the write-back's group)
  input  logic                store_i,
  input  logic                atom_i,
  input  logic [3:0]          amo_i,     // simt_mem_pkg::amo_e of an atomic
  output logic                busy_o,
  output logic                done_o,
  output logic                conflict_o, // a cycle in which some waiting lane was not served

  output logic [31:0]         rf_we_o,   // loaded words (the unit's destination register)
  output logic                rf_wr_o,   // ... some (rf_we_o != 0, from registers)
  output logic [NumLanes*32-1:0] rf_wdata_o,  // on the lanes of the group read last cycle

  input  logic                clr_i,     // launch: clear one word
  input  logic [ShAW-1:0]     clr_addr_i
);

  logic [31:0] pend_d, pend_q;
  logic [31:0] wb_d, wb_q;       // threads whose banks were read last cycle (a load)
  logic        wb_any_d, wb_any_q;  // ... some (wb_q != 0)
  logic [4:0]  wb_first_d, wb_first_q;  // the group read last cycle (a load's, an atomic's)
  logic        phase_d, phase_q; // atomic: 0 read the leader's word, 1 write it
  logic        active_d, active_q;

  // The group on the lanes: its first thread, its threads still waiting.
  logic [4:0]          first;
  logic [NumLanes-1:0] pend;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0]         pend_sh;
  /* verilator lint_on UNUSEDSIGNAL */
  assign first   = simt_sm_pkg::group_first(pend_q, NumLanes);
  assign first_o = first;
  assign pend_sh = pend_q >> first;
  assign pend    = pend_sh[NumLanes-1:0];

  // Each lane's word index in its CTA's region, bank and row.
  logic [IdxW-1:0]  idx  [NumLanes];
  logic [BankW-1:0] bank [NumLanes];
  logic [RowW-1:0]  row  [NumLanes];
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      idx[l]  = addr_i[l*32 + 2 +: IdxW];
      bank[l] = idx[l][BankW-1:0];
      row[l]  = RowW'((ShAW'(cta_i) * ShAW'(SharedWords) + ShAW'(idx[l])) >> BankW);
    end
  end

  // Lanes served this cycle: no lower waiting lane of the group uses the bank for another
  // word.
  logic [NumLanes-1:0] conflict, served;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [4:0]          leader_w;  // below NumLanes
  /* verilator lint_on UNUSEDSIGNAL */
  logic [LaneW-1:0]    leader;
  assign leader_w = simt_sm_pkg::lowest(32'(pend));
  assign leader   = leader_w[LaneW-1:0];
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      conflict[l] = 1'b0;
      for (int k = 0; k < l; k++) begin
        if (pend[k] && bank[k] == bank[l] && idx[k] != idx[l]) conflict[l] = 1'b1;
      end
    end
    if (atom_i) served = (pend != '0 && !phase_q) ? (NumLanes'(1) << leader) : '0;
    else served = pend & ~conflict;
  end
  logic [31:0] served_t;  // ... as threads
  assign served_t = 32'(served) << first;

  // ---- Banks ------------------------------------------------------------------------------
  logic [Banks-1:0]  b_we, b_re;
  logic [RowW-1:0]   b_waddr [Banks];
  logic [RowW-1:0]   b_raddr [Banks];
  logic [31:0]       b_wdata [Banks];
  logic [31:0]       b_rdata [Banks];
  logic [31:0]       atom_old, atom_new;
  // cas: the swap value (rc) in if the old word equals the compare operand (rb).
  logic [31:0] atom_operand;
  logic [31:0] lane_data [NumLanes];
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      lane_data[l] = data_i[l*32 +: 32];
    end
  end
  assign atom_operand = (amo_i == simt_mem_pkg::AmoCas) ? swap_i : lane_data[leader];
  // The atomic's leader word's bank and row and its operands, latched as the read phase
  // reads the word (the group's operands stay on the ports through both phases: asserted),
  // so that the write phase computes the new word from registers and the bank's read data.
  // From the waiting threads through the leader's search, the lane selects and the operation
  // into the banks' write data was the board core's routed critical path (seed 3 of three,
  // 2026-12-08, issue #26).
  logic [BankW-1:0] at_bank_d, at_bank_q;
  logic [RowW-1:0]  at_row_d, at_row_q;
  logic [31:0]      at_opd_d, at_opd_q;  // the operand (cas: the swap value)
  logic [31:0]      at_cmp_d, at_cmp_q;  // the leader's data (cas: the compare value)
  logic             at_read;             // the read phase: the leader's word is read
  assign at_read = active_q && atom_i && !phase_q && pend != '0;
  always_comb begin
    at_bank_d = at_bank_q;
    at_row_d  = at_row_q;
    at_opd_d  = at_opd_q;
    at_cmp_d  = at_cmp_q;
    if (at_read) begin
      at_bank_d = bank[leader];
      at_row_d  = row[leader];
      at_opd_d  = atom_operand;
      at_cmp_d  = lane_data[leader];
    end
  end
  assign atom_old = b_rdata[at_bank_q];
  assign atom_new = simt_mem_pkg::amo_apply(amo_i, atom_old, at_opd_q, at_cmp_q);

  // Per bank, the highest served lane on it drives it (all served lanes on a bank address
  // one word; the highest one's store data is the one written): its index, then a mux on the
  // index (on ECP5 about NumLanes LUTs a bit; one-hot selects with AND-OR trees let the
  // select logic be rebuilt inside every bit's LUTs).
  logic [LaneW-1:0] src [Banks];
  logic [Banks-1:0] hit;
  always_comb begin
    for (int b = 0; b < Banks; b++) begin
      src[b] = '0;
      hit[b] = 1'b0;
      for (int l = 0; l < NumLanes; l++) begin
        if (served[l] && bank[l] == BankW'(b)) begin
          src[b] = LaneW'(l);
          hit[b] = 1'b1;
        end
      end
    end
  end

  always_comb begin
    for (int b = 0; b < Banks; b++) begin
      b_we[b]    = 1'b0;
      b_re[b]    = 1'b0;
      b_waddr[b] = '0;
      b_wdata[b] = '0;
      if (hit[b]) begin
        b_we[b]    = active_q && store_i;
        b_re[b]    = active_q && !store_i;
        b_waddr[b] = row[src[b]];
        b_wdata[b] = lane_data[src[b]];
      end
      b_raddr[b] = b_waddr[b];
      if (active_q && atom_i && phase_q && at_bank_q == BankW'(b)) begin
        b_we[b]    = 1'b1;
        b_waddr[b] = at_row_q;
        b_wdata[b] = atom_new;
      end
      if (clr_i && clr_addr_i[BankW-1:0] == BankW'(b)) begin
        b_we[b]    = 1'b1;
        b_waddr[b] = clr_addr_i[ShAW-1:BankW];
        b_wdata[b] = '0;
      end
    end
  end

  for (genvar b = 0; b < Banks; b++) begin : g_bank
    simt_ram_1r1w #(.Width(32), .Depth(NumCtas * SharedWords / Banks)) u_bank (
      .clk_i   (clk_i),
      .we_i    (b_we[b]),
      .waddr_i (b_waddr[b]),
      .wdata_i (b_wdata[b]),
      .re_i    (b_re[b]),
      .raddr_i (b_raddr[b]),
      .rdata_o (b_rdata[b])
    );
  end

  // ---- Sequencing and the register-file write -----------------------------------------------
  // The words read last cycle, lane by lane (the group read then: wb_first_q's banks).
  logic [BankW-1:0] wb_bank [NumLanes];
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      wb_bank[l] = '0;
      for (int g = 0; g < 32 / NumLanes; g++) begin
        if (wb_first_q == 5'(g * NumLanes)) begin
          wb_bank[l] = wb_bank_i[(g*NumLanes + l)*BankW +: BankW];
        end
      end
    end
  end
  logic [31:0] leader_t;  // the atomic's thread
  assign leader_o   = first + 5'(leader);
  assign leader_t   = 32'd1 << leader_o;
  assign wb_first_d = first;

  // A running access (active_q): its writes, its end and its next state. A start never meets
  // a running access (asserted), so these outputs do not look at start_i: the start hangs off
  // the load/store unit's address check, and the write-back and done would chain that check
  // into the global responses' ready and the core's next issue.
  logic [31:0] pend_run;
  logic        phase_run;
  logic [31:0] wb_run;
  /* verilator lint_off UNUSEDSIGNAL */
  logic        done_run;  // the end from pend_run (done_o's reference, asserted)
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    pend_run  = pend_q;
    phase_run = phase_q;
    wb_run    = '0;
    done_run  = 1'b0;
    rf_we_o   = '0;
    for (int l = 0; l < NumLanes; l++) rf_wdata_o[l*32 +: 32] = b_rdata[wb_bank[l]];
    if (active_q) begin
      rf_we_o = wb_q;
      if (atom_i) begin
        if (phase_q) begin
          rf_we_o  = leader_t;
          pend_run = pend_q & ~leader_t;
        end
        phase_run = !phase_q;
      end else begin
        pend_run = pend_q & ~served_t;
        wb_run   = store_i ? '0 : served_t;
      end
      // Done in the cycle the last words are written: loads write the cycle after their
      // read; stores and atomics end with their last bank write.
      done_run = pend_run == '0 && (atom_i || store_i || pend_q == '0);
    end
  end

  always_comb begin
    pend_d   = pend_q;
    phase_d  = phase_q;
    active_d = active_q;
    wb_d     = '0;
    if (start_i) begin
      pend_d   = exec_i;
      phase_d  = 1'b0;
      active_d = 1'b1;
    end else if (active_q) begin
      pend_d   = pend_run;
      phase_d  = phase_run;
      wb_d     = wb_run;
      active_d = !done_o;
    end
  end
  // A load's running cycle reads some bank whenever threads wait (one is always served), so
  // "the unit writes next cycle" needs neither the served lanes nor the start; and the write
  // this cycle is known from registers (rf_wr_o: the core picks the write port's address by
  // it, which rf_we_o, through the atomic's leader search, would make late).
  assign wb_any_d     = active_q && !store_i && !atom_i && pend_q != '0;
  assign rf_wr_o      = active_q && (atom_i ? phase_q : wb_any_q);
  // The next cycle's group (the register file reads it this cycle) and whether threads wait
  // then: the group on the lanes while some of its threads still wait after this cycle
  // (rest_run, on the NumLanes lanes), else the next group after it, found from registers;
  // so the served lanes (the bank conflicts of addresses just read) pick between two groups
  // at the end rather than go through a search of the 32 threads of pend_d (the board core's
  // critical path ran through it into the register file's read address, 2026-12-06).
  logic        rest_run;
  logic        pend_many;   // two or more of the group's threads wait
  logic [31:0] pend_later;  // threads waiting in later groups
  logic [4:0]  first_after;
  assign pend_many   = (pend & (pend - NumLanes'(1))) != '0;
  assign pend_later  = simt_sm_pkg::later_groups(pend_q, NumLanes);
  assign first_after = simt_sm_pkg::group_first(pend_later, NumLanes);
  always_comb begin
    // (An atomic's write phase serves its one leader: some thread is left if two wait.)
    if (atom_i) rest_run = phase_q ? pend_many : pend != '0;
    else        rest_run = (pend & ~served) != '0;
  end
  // The access ends: a load the cycle after its last read (no thread waits), a store or an
  // atomic with the cycle that serves its last threads (none left in the group nor after
  // it). From rest_run, not the 32 threads of pend_run: an atomic's through its leader's
  // search and shift was the deepest path into the unit's control (2026-12-06).
  assign done_o = active_q &&
                  ((store_i || atom_i) ? !rest_run && pend_later == '0 : pend_q == '0);
  assign first_next_o = start_i ? simt_sm_pkg::group_first(exec_i, NumLanes) :
                        (active_q && !rest_run) ? first_after : first;
  assign pend_next_o  = start_i  ? exec_i != '0 :
                        active_q ? rest_run || pend_later != '0 : pend_q != '0;
  assign busy_o     = active_q;
  assign conflict_o = active_q && !atom_i && rest_run;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_q     <= '0;
      wb_q       <= '0;
      wb_any_q   <= 1'b0;
      wb_first_q <= '0;
      phase_q    <= 1'b0;
      active_q   <= 1'b0;
      at_bank_q  <= '0;
      at_row_q   <= '0;
      at_opd_q   <= '0;
      at_cmp_q   <= '0;
    end else begin
      pend_q     <= pend_d;
      wb_q       <= wb_d;
      wb_any_q   <= wb_any_d;
      wb_first_q <= wb_first_d;
      phase_q    <= phase_d;
      active_q   <= active_d;
      at_bank_q  <= at_bank_d;
      at_row_q   <= at_row_d;
      at_opd_q   <= at_opd_d;
      at_cmp_q   <= at_cmp_d;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(start_i && (active_q || exec_i == '0)))
        else $error("lsu shared: start while busy or without lanes");
      assert (!(clr_i && active_q)) else $error("lsu shared: clear during an access");
      assert (!(active_q && !atom_i && pend_q != '0 && served == '0))
        else $error("lsu shared: no lane served while lanes wait");
      assert (first_next_o == simt_sm_pkg::group_first(pend_d, NumLanes) &&
              pend_next_o == (pend_d != '0))
        else $error("lsu shared: the next group %0d / %b, not pend_d's %h", first_next_o,
                    pend_next_o, pend_d);
      assert (done_o == done_run)
        else $error("lsu shared: the end %b, from the threads left %b", done_o, done_run);
      assert (wb_any_q == (wb_q != '0) && rf_wr_o == (rf_we_o != '0))
        else $error("lsu shared: the write flag %b disagrees with the write %h", rf_wr_o, rf_we_o);
      assert ((served_t & ~simt_sm_pkg::group_of(pend_q, NumLanes)) == '0)
        else $error("lsu shared: a cycle serves threads of two groups");
      if (active_q && atom_i && phase_q)
        assert (at_bank_q == bank[leader] && at_row_q == row[leader] &&
                at_opd_q == atom_operand && at_cmp_q == lane_data[leader])
          else $error("lsu shared: atomic leader %0d: its word or operands moved between phases",
                      leader_o);
    end
  end
`endif

endmodule
